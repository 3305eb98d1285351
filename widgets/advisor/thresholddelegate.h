#pragma once

#include <QStyledItemDelegate>

namespace runlens::widgets::advisor {

/// Edits a rule's threshold in a line edit that accepts plain or scientific numbers (1e-9 thresholds are
/// common) within the rule's range (RulesModel::RangeRole), with the unit shown after the number. A
/// value outside the range is not written back; rejected() says why.
class ThresholdDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit ThresholdDelegate(QObject* parent = nullptr);

    /// Parses what a user typed (the locale's or C number format); nullopt-like false when not a number.
    static bool parse(const QString& text, double* value);

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
    void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const override;

signals:
    void rejected(const QString& message) const;
};

} // namespace runlens::widgets::advisor
