#include "widgets/advisor/findingsmodel.h"

#include "widgets/advisor/advisorformat.h"

#include <QFont>

#include <array>

namespace runlens::widgets::advisor {

namespace {

constexpr std::array kSeverityOrder { models::advisor::Severity::Error, models::advisor::Severity::Warning,
                                      models::advisor::Severity::Info };
constexpr std::array kCategoryOrder { models::advisor::Category::Accuracy, models::advisor::Category::Performance,
                                      models::advisor::Category::Memory, models::advisor::Category::Distributed,
                                      models::advisor::Category::Data };

} // namespace

FindingsModel::FindingsModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void FindingsModel::setFindings(const QList<models::advisor::Finding>& findings)
{
    beginResetModel();
    m_findings = findings;
    rebuild();
    endResetModel();
}

void FindingsModel::setFilter(const QString& text, const QSet<models::advisor::Severity>& severities)
{
    beginResetModel();
    m_filterText = text;
    m_filterWords = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    m_severities = severities;
    rebuild();
    endResetModel();
}

bool FindingsModel::accepts(const models::advisor::Finding& finding) const
{
    if (!m_severities.contains(finding.severity))
        return false;
    if (m_filterWords.isEmpty())
        return true;
    const QString haystack = QStringList { finding.title,
                                           finding.message,
                                           finding.advice,
                                           finding.ruleId,
                                           scopeText(finding.scope),
                                           models::advisor::displayName(finding.category),
                                           models::advisor::displayName(finding.severity) }
                                 .join(QLatin1Char('\n'));
    for (const QString& word : m_filterWords) {
        if (!haystack.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

void FindingsModel::rebuild()
{
    m_nodes.clear();
    m_roots.clear();
    m_sections.clear();
    m_shown = 0;
    for (const models::advisor::Finding& finding : std::as_const(m_findings)) {
        if (!finding.scope.comparison.isEmpty() && !m_sections.contains(finding.scope.comparison))
            m_sections << finding.scope.comparison;
    }
    m_shown += addSeverityGroups(-1, -1, m_roots);
    for (int section = 0; section < m_sections.size(); ++section) {
        const int sectionNode = int(m_nodes.size());
        Node node;
        node.row = int(m_roots.size());
        node.section = section;
        node.isSection = true;
        m_nodes.push_back(node);
        std::vector<int> children;
        const int count = addSeverityGroups(sectionNode, section, children);
        if (count == 0) {
            m_nodes.resize(sectionNode);
            continue;
        }
        m_nodes[sectionNode].children = std::move(children);
        m_nodes[sectionNode].count = count;
        m_nodes[sectionNode].severity = m_nodes[m_nodes[sectionNode].children.front()].severity;
        m_roots.push_back(sectionNode);
        m_shown += count;
    }
}

int FindingsModel::addSeverityGroups(int parent, int section, std::vector<int>& rows)
{
    const QString comparison = section < 0 ? QString() : m_sections.at(section);
    int total = 0;
    for (models::advisor::Severity severity : kSeverityOrder) {
        const int severityNode = int(m_nodes.size());
        m_nodes.push_back(Node { parent, int(rows.size()), -1, severity, -1, 0, {}, section, false });
        for (models::advisor::Category category : kCategoryOrder) {
            const int categoryNode = int(m_nodes.size());
            m_nodes.push_back(Node { severityNode, 0, -1, severity, int(category), 0, {}, section, false });
            for (int i = 0; i < m_findings.size(); ++i) {
                const models::advisor::Finding& finding = m_findings.at(i);
                if (finding.severity != severity || finding.category != category
                    || finding.scope.comparison != comparison || !accepts(finding))
                    continue;
                Node& parentNode = m_nodes[categoryNode];
                const int row = int(parentNode.children.size());
                parentNode.children.push_back(int(m_nodes.size()));
                ++parentNode.count;
                m_nodes.push_back(Node { categoryNode, row, i, severity, int(category), 1, {}, section, false });
            }
            if (m_nodes[categoryNode].count == 0) {
                m_nodes.resize(categoryNode);
                continue;
            }
            Node& severityGroup = m_nodes[severityNode];
            m_nodes[categoryNode].row = int(severityGroup.children.size());
            severityGroup.children.push_back(categoryNode);
            severityGroup.count += m_nodes[categoryNode].count;
        }
        if (m_nodes[severityNode].count == 0) {
            m_nodes.resize(severityNode);
            continue;
        }
        rows.push_back(severityNode);
        total += m_nodes[severityNode].count;
    }
    return total;
}

QModelIndex FindingsModel::indexOfFinding(int findingIndex) const
{
    for (int i = 0; i < int(m_nodes.size()); ++i) {
        if (m_nodes[i].finding == findingIndex)
            return createIndex(m_nodes[i].row, 0, quintptr(i));
    }
    return {};
}

QModelIndex FindingsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const std::vector<int>& children = parent.isValid() ? m_nodes[parent.internalId()].children : m_roots;
    if (row >= int(children.size()))
        return {};
    return createIndex(row, column, quintptr(children[row]));
}

QModelIndex FindingsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const int parentNode = m_nodes[child.internalId()].parent;
    if (parentNode < 0)
        return {};
    return createIndex(m_nodes[parentNode].row, 0, quintptr(parentNode));
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_roots.size());
    if (parent.column() != 0)
        return 0;
    return int(m_nodes[parent.internalId()].children.size());
}

int FindingsModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node& node = m_nodes[index.internalId()];
    switch (role) {
    case FindingIndexRole:
        return node.finding;
    case SeverityRole:
        return int(node.severity);
    case CategoryRole:
        return node.category;
    case CountRole:
        return node.count;
    case SectionRole:
        return node.section < 0 ? QString() : m_sections.at(node.section);
    case IsSectionRole:
        return node.isSection;
    default:
        break;
    }
    if (node.finding >= 0)
        return findingData(m_findings.at(node.finding), index.column(), role);
    return groupData(node, index.column(), role);
}

QVariant FindingsModel::groupData(const Node& node, int column, int role) const
{
    if (column != TitleColumn)
        return {};
    if (node.isSection) {
        const QString name = m_sections.at(node.section);
        switch (role) {
        case Qt::DisplayRole:
            return tr("Comparison %1 (%2)").arg(name).arg(node.count);
        case Qt::DecorationRole:
            return severityIcon(node.severity);
        case Qt::FontRole: {
            QFont font;
            font.setBold(true);
            return font;
        }
        case Qt::ToolTipRole:
            return tr("%n finding(s) of the dump comparison %1", nullptr, node.count).arg(name);
        default:
            return {};
        }
    }
    switch (role) {
    case Qt::DisplayRole:
        return tr("%1 (%2)")
            .arg(node.category < 0 ? models::advisor::displayName(node.severity)
                                   : models::advisor::displayName(models::advisor::Category(node.category)))
            .arg(node.count);
    case Qt::DecorationRole:
        return node.category < 0 ? QVariant(severityIcon(node.severity)) : QVariant();
    case Qt::FontRole: {
        QFont font;
        font.setBold(node.category < 0);
        return font;
    }
    case Qt::ToolTipRole:
        return node.category < 0
            ? tr("%n finding(s) of severity %1", nullptr, node.count).arg(models::advisor::displayName(node.severity))
            : tr("%n %1 finding(s) of severity %2", nullptr, node.count)
                  .arg(models::advisor::displayName(models::advisor::Category(node.category)),
                       models::advisor::displayName(node.severity));
    default:
        return {};
    }
}

QVariant FindingsModel::findingData(const models::advisor::Finding& finding, int column, int role) const
{
    if (role == Qt::ToolTipRole)
        return finding.message.isEmpty() ? finding.title : finding.message;
    if (role == Qt::TextAlignmentRole && (column == ValueColumn || column == ThresholdColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case TitleColumn:
        return finding.occurrences > 1 ? tr("%1 (\u00d7%2)").arg(finding.title).arg(finding.occurrences)
                                       : finding.title;
    case ScopeColumn:
        return scopeText(finding.scope);
    case ValueColumn:
        return models::advisor::formatValue(finding.value, finding.unit);
    case ThresholdColumn:
        return QStringLiteral("%1 %2").arg(models::advisor::toString(finding.comparator),
                                           models::advisor::formatValue(finding.threshold, finding.unit));
    default:
        return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case TitleColumn:
            return tr("Finding");
        case ScopeColumn:
            return tr("Where");
        case ValueColumn:
            return tr("Value");
        case ThresholdColumn:
            return tr("Threshold");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TitleColumn:
            return tr("What the rule found, grouped by severity and category");
        case ScopeColumn:
            return tr("Run, rank, step, layer, tensor or operator the finding applies to");
        case ValueColumn:
            return tr("The measured value");
        case ThresholdColumn:
            return tr("The rule's threshold the value was compared with");
        default:
            return {};
        }
    }
    return {};
}

Qt::ItemFlags FindingsModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

} // namespace runlens::widgets::advisor
