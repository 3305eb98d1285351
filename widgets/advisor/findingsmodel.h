#pragma once

#include "models/advisor/advisortypes.h"

#include <QAbstractItemModel>
#include <QList>
#include <QSet>

#include <vector>

namespace runlens::widgets::advisor {

/// The Advisor's findings as a tree: severity groups (errors first), category groups inside them, the
/// findings inside those, each with its title, scope, measured value and threshold. The findings of a dump
/// comparison (Scope::comparison) follow in a group of their own per comparison, titled with its name, with
/// the same severity and category groups inside. Group rows carry the number of findings they hold. The filter (words
/// that must all occur, and the severities to show) is applied here rather than in a proxy so that the group counts
/// always match what is listed. The model keeps its own copy of the findings.
class FindingsModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { TitleColumn, ScopeColumn, ValueColumn, ThresholdColumn, ColumnCount };
    enum Role {
        FindingIndexRole = Qt::UserRole + 1, ///< index into findings(); -1 on group rows
        SeverityRole, ///< int(Severity) on every row
        CategoryRole, ///< int(Category) on category and finding rows, -1 on severity rows
        CountRole, ///< findings below a group row; 1 on finding rows
        SectionRole, ///< the comparison a row belongs to (Scope::comparison); empty for the open run's rows
        IsSectionRole, ///< true on the group row of a comparison
    };

    explicit FindingsModel(QObject* parent = nullptr);

    void setFindings(const QList<models::advisor::Finding>& findings);
    const QList<models::advisor::Finding>& findings() const { return m_findings; }

    /// Shows only findings whose texts contain every whitespace-separated word of `text` (case
    /// insensitive) and whose severity is in `severities`.
    void setFilter(const QString& text, const QSet<models::advisor::Severity>& severities);
    QString filterText() const { return m_filterText; }
    /// Findings that pass the filter.
    int shownCount() const { return m_shown; }
    bool accepts(const models::advisor::Finding& finding) const;

    /// The row of finding `findingIndex`, or an invalid index when it is filtered out.
    QModelIndex indexOfFinding(int findingIndex) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    struct Node
    {
        int parent = -1; ///< node index; -1 for top-level rows
        int row = 0; ///< row within the parent
        int finding = -1; ///< index into m_findings for finding rows
        models::advisor::Severity severity = models::advisor::Severity::Info;
        int category = -1; ///< int(Category) for category and finding rows
        int count = 0;
        std::vector<int> children;
        int section = -1; ///< index into m_sections; -1 for the open run's rows
        bool isSection = false;
    };

    void rebuild();
    /// Adds the severity groups of the findings of `section` below `parent` (-1: top level) to `rows`; returns
    /// how many findings they hold.
    int addSeverityGroups(int parent, int section, std::vector<int>& rows);
    QVariant groupData(const Node& node, int column, int role) const;
    QVariant findingData(const models::advisor::Finding& finding, int column, int role) const;

    QList<models::advisor::Finding> m_findings;
    QString m_filterText;
    QStringList m_filterWords;
    QSet<models::advisor::Severity> m_severities { models::advisor::Severity::Error, models::advisor::Severity::Warning,
                                                   models::advisor::Severity::Info };
    std::vector<Node> m_nodes;
    std::vector<int> m_roots;
    QStringList m_sections; ///< the comparisons, in the order of their first finding
    int m_shown = 0;
};

} // namespace runlens::widgets::advisor
