#pragma once

#include "models/advisor/advisortypes.h"
#include "models/advisor/rule.h"

#include <QAbstractTableModel>
#include <QHash>

#include <utility>

namespace runlens::widgets::advisor {

/// Every rule of the book in effect, one row each: enabled check box and id, title, category, severity,
/// threshold (editable within the rule's range), recommended value and whether the last evaluation could
/// evaluate it (with the reason when not, or the number of findings). Edits change the model's own copy
/// of the book and emit edited(); the owner passes ruleBook() on.
class RulesModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        RuleColumn,
        TitleColumn,
        CategoryColumn,
        SeverityColumn,
        ThresholdColumn,
        RecommendedColumn,
        StatusColumn,
        ColumnCount
    };
    enum Role {
        RuleIdRole = Qt::UserRole + 1,
        /// On the threshold column: the valid range as a QVariantList {minimum, maximum}.
        RangeRole,
        RangeTextRole, ///< the range as rangeText() says it
        UnitRole, ///< int(Unit)
        ModifiedRole, ///< threshold or enabled differ from the built-in rule
    };

    explicit RulesModel(QObject* parent = nullptr);

    void setRuleBook(const models::advisor::RuleBook& current, const models::advisor::RuleBook& builtIn);
    const models::advisor::RuleBook& ruleBook() const { return m_book; }
    void setStatuses(const QList<models::advisor::RuleStatus>& statuses);
    const models::advisor::RuleStatus* status(const QString& ruleId) const;

    /// The thresholds a rule accepts. Rules whose range is empty or does not hold their own values accept
    /// any finite number.
    static std::pair<double, double> range(const models::advisor::Rule& rule);
    /// The range for messages: "0 % to 100 %", "at least 0", "any number".
    static QString rangeText(const models::advisor::Rule& rule);

    /// Sets a threshold; false (and nothing changes) when the rule is unknown or the value is out of range.
    bool setThreshold(const QString& ruleId, double threshold);
    bool setEnabled(const QString& ruleId, bool enabled);
    /// Back to the recommended threshold and the built-in enabled state.
    void resetToRecommended(const QString& ruleId);
    void resetAllToRecommended();
    bool isModified(const models::advisor::Rule& rule) const;
    int rowOf(const QString& ruleId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

signals:
    /// The user changed the book (threshold, enabled state or a reset).
    void edited();

private:
    QString statusText(const models::advisor::Rule& rule) const;
    bool resetRow(int row);

    models::advisor::RuleBook m_book;
    models::advisor::RuleBook m_builtIn;
    QHash<QString, models::advisor::RuleStatus> m_statuses;
};

} // namespace runlens::widgets::advisor
