#pragma once

#include "models/advisor/advisortypes.h"

#include <QWidget>

#include <optional>

class QListWidget;
class QPushButton;
class QTextBrowser;

namespace runlens::widgets::advisor {

/// The selected finding in full: title, severity and category, the message with its numbers, the
/// measured value against the threshold, where it applies, the advice, and its evidence: a "Show
/// evidence" button for the selected locator and, when there are several, a list to pick one from.
class FindingDetails final : public QWidget
{
    Q_OBJECT
public:
    explicit FindingDetails(QWidget* parent = nullptr);

    /// Shows `finding`, or the hint to select one when nullopt.
    void setFinding(const std::optional<models::advisor::Finding>& finding);
    const std::optional<models::advisor::Finding>& finding() const { return m_finding; }

    /// The text shown, without markup.
    QString plainText() const;
    /// The locator "Show evidence" requests: the one picked in the list, else the first.
    QString currentEvidence() const;

    QPushButton* showEvidenceButton() const { return m_showEvidence; }
    QListWidget* evidenceList() const { return m_evidenceList; }

signals:
    void evidenceRequested(const QString& locator);

private:
    QString html(const models::advisor::Finding& finding) const;

    std::optional<models::advisor::Finding> m_finding;
    QTextBrowser* m_text = nullptr;
    QListWidget* m_evidenceList = nullptr;
    QPushButton* m_showEvidence = nullptr;
};

} // namespace runlens::widgets::advisor
