#include "widgets/images/textpanel.h"

#include "widgets/images/textcard.h"

#include <QCheckBox>

namespace runlens::widgets::images {

TextPanel::TextPanel(models::summary::SummaryStore* store, QWidget* parent)
    : SummaryCardsPanel(store, models::summary::SummaryKind::Texts, parent)
{
    setObjectName(QStringLiteral("TextPanel"));
    m_allStepsCheck = new QCheckBox(tr("All steps"));
    m_allStepsCheck->setObjectName(QStringLiteral("allSteps"));
    m_allStepsCheck->setToolTip(tr("List every step's text in each card, newest first, instead of one step chosen "
                                   "with the slider"));
    connect(m_allStepsCheck, &QCheckBox::toggled, this, &TextPanel::setAllSteps);
    addToolbarWidget(m_allStepsCheck);
    initialize();
}

TextPanel::~TextPanel() = default;

QWidget* TextPanel::createCard(const QString& run, const QString& tag)
{
    auto* card = new TextCard(run, tag, colorOfRun(run));
    card->setRunLabel(store()->runDisplayName(run));
    card->setAllSteps(m_allSteps);
    card->setSeries(store()->texts(run, tag));
    return card;
}

void TextPanel::refreshCard(QWidget* widget, const QString& run, const QString& tag)
{
    auto* card = static_cast<TextCard*>(widget);
    card->setRunColor(colorOfRun(run));
    if (store())
        card->setSeries(store()->texts(run, tag));
}

QString TextPanel::noDataText() const
{
    return tr("<p><b>No texts yet</b></p><p>Open a run folder whose TensorBoard event files or VisualDL logs record "
              "text (for example with <code>add_text</code>); it appears here while it loads.</p>");
}

TextCard* TextPanel::card(const QString& run, const QString& tag) const
{
    return static_cast<TextCard*>(cardWidget(run, tag));
}

QList<TextCard*> TextPanel::visibleCards() const
{
    QList<TextCard*> out;
    for (QWidget* widget : visibleCardWidgets())
        out << static_cast<TextCard*>(widget);
    return out;
}

void TextPanel::setAllSteps(bool allSteps)
{
    {
        const QSignalBlocker blocker(m_allStepsCheck);
        m_allStepsCheck->setChecked(allSteps);
    }
    if (allSteps == m_allSteps)
        return;
    m_allSteps = allSteps;
    for (QWidget* widget : allCardWidgets())
        static_cast<TextCard*>(widget)->setAllSteps(allSteps);
    relayoutCards();
}

} // namespace runlens::widgets::images
