#include "widgets/advisor/findingdetails.h"

#include "widgets/advisor/advisorformat.h"

#include "widgets/common/chartpalette.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace runlens::widgets::advisor {

namespace {

constexpr int kLocatorRole = Qt::UserRole + 1;

QString escaped(const QString& text)
{
    return text.toHtmlEscaped();
}

} // namespace

FindingDetails::FindingDetails(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);

    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("findingText"));
    m_text->setOpenLinks(false);
    m_text->setFrameShape(QFrame::NoFrame);
    m_text->setToolTip(tr("The selected finding: what was measured, where, and what to try"));
    m_text->document()->setDocumentMargin(8);
    layout->addWidget(m_text, 1);

    m_evidenceList = new QListWidget(this);
    m_evidenceList->setObjectName(QStringLiteral("evidenceList"));
    m_evidenceList->setToolTip(tr("Everything that shows this finding; double-click one to show it"));
    m_evidenceList->setUniformItemSizes(true);
    layout->addWidget(m_evidenceList);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(8, 0, 8, 6);
    row->addStretch(1);
    m_showEvidence = new QPushButton(tr("Show evidence"), this);
    m_showEvidence->setObjectName(QStringLiteral("showEvidence"));
    m_showEvidence->setToolTip(tr("Select what shows this finding in its panel: the chart point, graph node, "
                                  "tensor at the step or timeline range"));
    row->addWidget(m_showEvidence);
    layout->addLayout(row);

    connect(m_showEvidence, &QPushButton::clicked, this, [this] {
        const QString locator = currentEvidence();
        if (!locator.isEmpty())
            emit evidenceRequested(locator);
    });
    connect(m_evidenceList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit evidenceRequested(item->data(kLocatorRole).toString()); });

    setFinding(std::nullopt);
}

void FindingDetails::setFinding(const std::optional<models::advisor::Finding>& finding)
{
    m_finding = finding;
    m_evidenceList->clear();
    if (!finding) {
        m_text->setHtml(QStringLiteral("<p style=\"color:%1\">%2</p>")
                            .arg(palette().color(QPalette::PlaceholderText).name(),
                                 escaped(tr("Select a finding to see its numbers, advice and evidence."))));
        m_evidenceList->hide();
        m_showEvidence->setEnabled(false);
        return;
    }
    m_text->setHtml(html(*finding));
    for (const QString& locator : finding->evidence) {
        auto* item = new QListWidgetItem(describeEvidence(locator, finding->scope), m_evidenceList);
        item->setData(kLocatorRole, locator);
        item->setToolTip(locator);
    }
    if (m_evidenceList->count() > 0)
        m_evidenceList->setCurrentRow(0);
    // As tall as its items, up to five, so a short list leaves the room to the text above.
    const int rows = std::min<int>(int(finding->evidence.size()), 5);
    m_evidenceList->setFixedHeight(rows * std::max(m_evidenceList->sizeHintForRow(0), fontMetrics().height())
                                   + 2 * m_evidenceList->frameWidth() + 2);
    m_evidenceList->setVisible(finding->evidence.size() > 1);
    m_showEvidence->setEnabled(!finding->evidence.isEmpty());
    m_showEvidence->setToolTip(finding->evidence.isEmpty() ? tr("This finding has no evidence to show")
                                                           : tr("Show %1").arg(describeEvidence(
                                                               finding->evidence.constFirst(), finding->scope)));
}

QString FindingDetails::html(const models::advisor::Finding& finding) const
{
    const QString muted = palette().color(QPalette::PlaceholderText).name();
    const QColor severityColor = finding.severity == models::advisor::Severity::Error ? alertColor()
        : finding.severity == models::advisor::Severity::Warning                      ? QColor(0xc0, 0x7a, 0x00)
                                                                                      : palette().color(QPalette::Link);
    QString text;
    text += QStringLiteral("<p style=\"margin-bottom:2px\"><b>%1</b></p>").arg(escaped(finding.title));
    text += QStringLiteral("<p style=\"margin-top:0\"><span style=\"color:%1\">%2</span>"
                           "<span style=\"color:%3\"> \u00b7 %4 \u00b7 %5</span></p>")
                .arg(severityColor.name(), escaped(models::advisor::displayName(finding.severity)), muted,
                     escaped(models::advisor::displayName(finding.category)), escaped(finding.ruleId));
    if (!finding.message.isEmpty())
        text += QStringLiteral("<p>%1</p>").arg(escaped(finding.message));

    auto row = [&muted](const QString& label, const QString& value) {
        return QStringLiteral("<tr><td style=\"color:%1; padding-right:12px\">%2</td><td>%3</td></tr>")
            .arg(muted, escaped(label), escaped(value));
    };
    text += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
    text += row(tr("Measured"), models::advisor::formatValue(finding.value, finding.unit));
    text += row(tr("Threshold"),
                QStringLiteral("%1 %2").arg(toString(finding.comparator),
                                            models::advisor::formatValue(finding.threshold, finding.unit)));
    const QString where = scopeText(finding.scope);
    if (!where.isEmpty())
        text += row(tr("Where"), where);
    if (finding.occurrences > 1)
        text += row(tr("Occurrences"), QString::number(finding.occurrences));
    text += QStringLiteral("</table>");
    if (!finding.advice.isEmpty())
        text += QStringLiteral("<p><b>%1</b> %2</p>").arg(escaped(tr("Advice:")), escaped(finding.advice));
    return text;
}

QString FindingDetails::plainText() const
{
    return m_text->toPlainText();
}

QString FindingDetails::currentEvidence() const
{
    if (const QListWidgetItem* item = m_evidenceList->currentItem())
        return item->data(kLocatorRole).toString();
    return m_finding && !m_finding->evidence.isEmpty() ? m_finding->evidence.constFirst() : QString();
}

} // namespace runlens::widgets::advisor
