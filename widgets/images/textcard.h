#pragma once

#include "models/summary/summarydata.h"

#include <QColor>
#include <QTextBrowser>
#include <QWidget>

class QLabel;
class QSlider;

namespace runlens::widgets::images {

/// A text browser for texts from summary files: loads no resource the text names (no local files, no
/// network), and opens only http(s) links, in the user's browser.
class SummaryTextBrowser final : public QTextBrowser
{
    Q_OBJECT
public:
    explicit SummaryTextBrowser(QWidget* parent = nullptr);

    QVariant loadResource(int type, const QUrl& name) override;
};

/// One text tag of one run in the Text panel: the text at the step chosen with the slider (Markdown, a
/// list or a table by the tensor's rank), or every step's text one after another.
class TextCard final : public QWidget
{
    Q_OBJECT
public:
    TextCard(const QString& run, const QString& tag, const QColor& runColor, QWidget* parent = nullptr);

    QString run() const { return m_run; }
    QString tag() const { return m_tag; }
    void setRunColor(const QColor& color);
    /// The run as users see it in the header (runDisplayName); the run itself until set.
    void setRunLabel(const QString& label);

    /// Takes the run's current series; the slider stays on its step or follows the newest one when it was there.
    void setSeries(const models::summary::TextSeries& series);
    const models::summary::TextSeries& series() const { return m_series; }

    void setAllSteps(bool allSteps);
    bool allSteps() const { return m_allSteps; }

    int currentIndex() const;
    void setCurrentIndex(int index);
    qint64 currentStep() const;

    QSlider* slider() const { return m_slider; }
    SummaryTextBrowser* browser() const { return m_browser; }
    QTextDocument* document() const;
    QString statusText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void render();

    QString m_run;
    QString m_tag;
    QColor m_runColor;
    models::summary::TextSeries m_series;
    bool m_allSteps = false;

    QLabel* m_colorChip = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_stepLabel = nullptr;
    SummaryTextBrowser* m_browser = nullptr;
    QLabel* m_statusLabel = nullptr;
};

} // namespace runlens::widgets::images
