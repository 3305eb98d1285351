#pragma once

#include <QWidget>

namespace runlens::widgets::scalars {

/// Holds a chart's place in the Scalars panel until the chart scrolls into view: the same card, with the
/// tag as title and no plot. Costs nothing to create, so a page with hundreds of tags opens at once.
class ChartPlaceholder final : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPlaceholder(const QString& tag, QWidget* parent = nullptr);

    QString tag() const { return m_tag; }
    QSize sizeHint() const override { return { 420, 280 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_tag;
};

} // namespace runlens::widgets::scalars
