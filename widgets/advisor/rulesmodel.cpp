#include "widgets/advisor/rulesmodel.h"

#include "widgets/advisor/advisorformat.h"

#include <QApplication>
#include <QFont>
#include <QPalette>

#include <cmath>
#include <limits>

namespace runlens::widgets::advisor {

RulesModel::RulesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RulesModel::setRuleBook(const models::advisor::RuleBook& current, const models::advisor::RuleBook& builtIn)
{
    beginResetModel();
    m_book = current;
    m_builtIn = builtIn;
    endResetModel();
}

void RulesModel::setStatuses(const QList<models::advisor::RuleStatus>& statuses)
{
    m_statuses.clear();
    for (const models::advisor::RuleStatus& status : statuses)
        m_statuses.insert(status.ruleId, status);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const models::advisor::RuleStatus* RulesModel::status(const QString& ruleId) const
{
    const auto it = m_statuses.constFind(ruleId);
    return it == m_statuses.constEnd() ? nullptr : &it.value();
}

std::pair<double, double> RulesModel::range(const models::advisor::Rule& rule)
{
    constexpr double kLowest = std::numeric_limits<double>::lowest();
    constexpr double kHighest = std::numeric_limits<double>::max();
    // A rule without a range (or with one that does not hold its own recommended value) takes any number.
    if (std::isnan(rule.minimum) || std::isnan(rule.maximum) || rule.minimum > rule.maximum
        || rule.recommended < rule.minimum || rule.recommended > rule.maximum)
        return { kLowest, kHighest };
    return { std::isfinite(rule.minimum) ? rule.minimum : kLowest,
             std::isfinite(rule.maximum) ? rule.maximum : kHighest };
}

QString RulesModel::rangeText(const models::advisor::Rule& rule)
{
    const auto [minimum, maximum] = range(rule);
    const bool low = minimum > std::numeric_limits<double>::lowest();
    const bool high = maximum < std::numeric_limits<double>::max();
    if (low && high)
        return tr("%1 to %2")
            .arg(models::advisor::formatValue(minimum, rule.unit), models::advisor::formatValue(maximum, rule.unit));
    if (low)
        return tr("at least %1").arg(models::advisor::formatValue(minimum, rule.unit));
    if (high)
        return tr("at most %1").arg(models::advisor::formatValue(maximum, rule.unit));
    return tr("any number");
}

int RulesModel::rowOf(const QString& ruleId) const
{
    const QList<models::advisor::Rule>& rules = m_book.rules();
    for (int row = 0; row < rules.size(); ++row) {
        if (rules.at(row).id == ruleId)
            return row;
    }
    return -1;
}

bool RulesModel::setThreshold(const QString& ruleId, double threshold)
{
    const int row = rowOf(ruleId);
    models::advisor::Rule* rule = m_book.rule(ruleId);
    if (row < 0 || !rule || !std::isfinite(threshold))
        return false;
    const auto [minimum, maximum] = range(*rule);
    if (threshold < minimum || threshold > maximum)
        return false;
    if (rule->threshold == threshold)
        return true;
    rule->threshold = threshold;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    emit edited();
    return true;
}

bool RulesModel::setEnabled(const QString& ruleId, bool enabled)
{
    const int row = rowOf(ruleId);
    models::advisor::Rule* rule = m_book.rule(ruleId);
    if (row < 0 || !rule)
        return false;
    if (rule->enabled == enabled)
        return true;
    rule->enabled = enabled;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    emit edited();
    return true;
}

bool RulesModel::resetRow(int row)
{
    models::advisor::Rule* rule = m_book.rule(m_book.rules().at(row).id);
    const models::advisor::Rule* original = m_builtIn.rule(rule->id);
    const bool enabled = original ? original->enabled : true;
    if (rule->threshold == rule->recommended && rule->enabled == enabled)
        return false;
    rule->threshold = rule->recommended;
    rule->enabled = enabled;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return true;
}

void RulesModel::resetToRecommended(const QString& ruleId)
{
    const int row = rowOf(ruleId);
    if (row >= 0 && resetRow(row))
        emit edited();
}

void RulesModel::resetAllToRecommended()
{
    bool changed = false;
    for (int row = 0; row < rowCount(); ++row)
        changed = resetRow(row) || changed;
    if (changed)
        emit edited();
}

bool RulesModel::isModified(const models::advisor::Rule& rule) const
{
    const models::advisor::Rule* original = m_builtIn.rule(rule.id);
    return rule.threshold != rule.recommended || (original && original->enabled != rule.enabled);
}

int RulesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_book.rules().size());
}

int RulesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RulesModel::statusText(const models::advisor::Rule& rule) const
{
    if (!rule.enabled)
        return tr("Disabled");
    const models::advisor::RuleStatus* s = status(rule.id);
    if (!s)
        return tr("Not run yet");
    if (!s->evaluated)
        return s->reason.isEmpty() ? tr("Not evaluated") : tr("Not evaluated: %1").arg(s->reason);
    if (s->findings == 0)
        return tr("Evaluated, no findings");
    return s->findings == 1 ? tr("Evaluated, 1 finding") : tr("Evaluated, %n findings", nullptr, s->findings);
}

QVariant RulesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const models::advisor::Rule& rule = m_book.rules().at(index.row());
    const int column = index.column();
    switch (role) {
    case RuleIdRole:
        return rule.id;
    case UnitRole:
        return int(rule.unit);
    case ModifiedRole:
        return isModified(rule);
    case RangeRole: {
        const auto [minimum, maximum] = range(rule);
        return QVariantList { minimum, maximum };
    }
    case RangeTextRole:
        return rangeText(rule);
    case Qt::CheckStateRole:
        return column == RuleColumn ? QVariant(rule.enabled ? Qt::Checked : Qt::Unchecked) : QVariant();
    case Qt::EditRole:
        if (column == ThresholdColumn)
            return rule.threshold;
        break;
    case Qt::DisplayRole:
        switch (column) {
        case RuleColumn:
            return rule.id;
        case TitleColumn:
            return rule.title;
        case CategoryColumn:
            return models::advisor::displayName(rule.category);
        case SeverityColumn:
            return models::advisor::displayName(rule.severity);
        case ThresholdColumn:
            return QStringLiteral("%1 %2").arg(models::advisor::toString(rule.comparator),
                                               models::advisor::formatValue(rule.threshold, rule.unit));
        case RecommendedColumn:
            return models::advisor::formatValue(rule.recommended, rule.unit);
        case StatusColumn:
            return statusText(rule);
        default:
            return {};
        }
    case Qt::DecorationRole:
        return column == SeverityColumn ? QVariant(severityIcon(rule.severity)) : QVariant();
    case Qt::FontRole:
        if (column == ThresholdColumn && rule.threshold != rule.recommended) {
            QFont font;
            font.setBold(true);
            return font;
        }
        break;
    case Qt::ForegroundRole: {
        const models::advisor::RuleStatus* s = status(rule.id);
        if (column == StatusColumn && (!rule.enabled || !s || !s->evaluated))
            return QApplication::palette().brush(QPalette::PlaceholderText);
        break;
    }
    case Qt::TextAlignmentRole:
        if (column == ThresholdColumn || column == RecommendedColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case Qt::ToolTipRole:
        switch (column) {
        case RuleColumn:
            return tr("%1 (from %2). Uncheck to switch the rule off.")
                .arg(rule.id, rule.source.isEmpty() ? tr("built-in rules") : rule.source);
        case TitleColumn:
            return rule.advice.isEmpty() ? rule.title : tr("%1\nAdvice: %2").arg(rule.title, rule.advice);
        case ThresholdColumn: {
            QString tip = tr("Findings when the measured value is %1 this. Double-click to change it (%2).")
                              .arg(models::advisor::toString(rule.comparator), rangeText(rule));
            if (rule.threshold != rule.recommended)
                tip += QLatin1Char('\n')
                    + tr("Changed from the recommended %1.")
                          .arg(models::advisor::formatValue(rule.recommended, rule.unit));
            return tip;
        }
        case RecommendedColumn:
            return tr("The threshold the rule ships with");
        case StatusColumn:
            return statusText(rule);
        default:
            return {};
        }
    default:
        break;
    }
    return {};
}

bool RulesModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.row() >= rowCount())
        return false;
    const QString id = m_book.rules().at(index.row()).id;
    if (index.column() == RuleColumn && role == Qt::CheckStateRole)
        return setEnabled(id, Qt::CheckState(value.toInt()) == Qt::Checked);
    if (index.column() == ThresholdColumn && role == Qt::EditRole) {
        bool ok = false;
        const double threshold = value.toDouble(&ok);
        return ok && setThreshold(id, threshold);
    }
    return false;
}

QVariant RulesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RuleColumn:
            return tr("Rule");
        case TitleColumn:
            return tr("Title");
        case CategoryColumn:
            return tr("Category");
        case SeverityColumn:
            return tr("Severity");
        case ThresholdColumn:
            return tr("Threshold");
        case RecommendedColumn:
            return tr("Recommended");
        case StatusColumn:
            return tr("Status");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case RuleColumn:
            return tr("Rule id; the check box switches the rule on or off");
        case TitleColumn:
            return tr("What the rule looks for");
        case CategoryColumn:
            return tr("Accuracy, performance, memory, distributed or data");
        case SeverityColumn:
            return tr("How serious a finding of this rule is");
        case ThresholdColumn:
            return tr("The threshold in effect; double-click to change it within the rule's range");
        case RecommendedColumn:
            return tr("The threshold the rule ships with");
        case StatusColumn:
            return tr("Whether the last evaluation could run the rule on the loaded data, and what it found");
        default:
            return {};
        }
    }
    return {};
}

Qt::ItemFlags RulesModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags result = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == RuleColumn)
        result |= Qt::ItemIsUserCheckable;
    if (index.column() == ThresholdColumn)
        result |= Qt::ItemIsEditable;
    return result;
}

} // namespace runlens::widgets::advisor
