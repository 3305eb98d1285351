#pragma once

#include "widgets/images/summarycardspanel.h"

class QCheckBox;

namespace runlens::widgets::images {

class TextCard;

/// The Text panel: for every text tag a section with a card per run showing the text at a step (Markdown,
/// a list or a table by rank) with a step slider, or, in "all steps" mode, every step's text one after
/// another like TensorBoard's text dashboard. Live logs update the cards in place.
class TextPanel final : public SummaryCardsPanel
{
    Q_OBJECT
public:
    explicit TextPanel(models::summary::SummaryStore* store = nullptr, QWidget* parent = nullptr);
    ~TextPanel() override;

    TextCard* card(const QString& run, const QString& tag) const;
    QList<TextCard*> visibleCards() const;

    void setAllSteps(bool allSteps);
    bool allSteps() const { return m_allSteps; }

    static constexpr int kCardHeight = 300;
    static constexpr int kAllStepsCardHeight = 520;
    static constexpr int kMinCardWidth = 420;

protected:
    QWidget* createCard(const QString& run, const QString& tag) override;
    void refreshCard(QWidget* card, const QString& run, const QString& tag) override;
    QString noDataText() const override;
    int cardHeight() const override { return m_allSteps ? kAllStepsCardHeight : kCardHeight; }
    int minimumCardWidth() const override { return kMinCardWidth; }

private:
    QCheckBox* m_allStepsCheck = nullptr;
    bool m_allSteps = false;
};

} // namespace runlens::widgets::images
