#include "widgets/advisor/thresholddelegate.h"

#include "widgets/advisor/advisorformat.h"
#include "widgets/advisor/rulesmodel.h"

#include <QDoubleValidator>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>

#include <cmath>

namespace runlens::widgets::advisor {

namespace {

/// The editor: a line edit (so the view's Enter and focus handling apply to it) with the unit drawn
/// inside its right end.
class ThresholdEdit final : public QLineEdit
{
public:
    ThresholdEdit(const QString& unit, QWidget* parent)
        : QLineEdit(parent)
        , m_unit(new QLabel(unit, this))
    {
        setObjectName(QStringLiteral("thresholdEdit"));
        setFrame(false);
        setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_unit->setForegroundRole(QPalette::PlaceholderText);
        m_unit->setVisible(!unit.isEmpty());
        if (!unit.isEmpty())
            setTextMargins(0, 0, m_unit->sizeHint().width() + 4, 0);
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLineEdit::resizeEvent(event);
        const QSize hint = m_unit->sizeHint();
        m_unit->setGeometry(width() - hint.width() - 3, (height() - hint.height()) / 2, hint.width(), hint.height());
    }

private:
    QLabel* m_unit;
};

} // namespace

ThresholdDelegate::ThresholdDelegate(QObject* parent)
    : QStyledItemDelegate(parent)
{ }

bool ThresholdDelegate::parse(const QString& text, double* value)
{
    const QString trimmed = text.trimmed();
    bool ok = false;
    double number = QLocale().toDouble(trimmed, &ok);
    if (!ok)
        number = QLocale::c().toDouble(trimmed, &ok);
    if (!ok || !std::isfinite(number))
        return false;
    *value = number;
    return true;
}

QWidget* ThresholdDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const
{
    const models::advisor::Unit unit = models::advisor::Unit(index.data(RulesModel::UnitRole).toInt());
    auto* editor = new ThresholdEdit(unitSuffix(unit).trimmed(), parent);
    // Only the number's form is validated while typing: a value out of range is still committed, so that
    // setModelData() can say why it is not taken.
    auto* validator = new QDoubleValidator(editor);
    validator->setNotation(QDoubleValidator::ScientificNotation);
    editor->setValidator(validator);
    editor->setToolTip(
        tr("The threshold: %1, for example 0.05 or 1e-9").arg(index.data(RulesModel::RangeTextRole).toString()));
    return editor;
}

void ThresholdDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    auto* e = static_cast<QLineEdit*>(editor);
    e->setText(QLocale().toString(index.data(Qt::EditRole).toDouble(), 'g', 12));
    e->selectAll();
}

void ThresholdDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const
{
    const auto* e = static_cast<QLineEdit*>(editor);
    double value = 0.0;
    const models::advisor::Unit unit = models::advisor::Unit(index.data(RulesModel::UnitRole).toInt());
    if (!parse(e->text(), &value)) {
        emit rejected(tr("\u201c%1\u201d is not a number; the threshold stays %2.")
                          .arg(e->text(), models::advisor::formatValue(index.data(Qt::EditRole).toDouble(), unit)));
        return;
    }
    if (!model->setData(index, value, Qt::EditRole)) {
        emit rejected(tr("%1 is outside the rule's range (%2); the threshold stays %3.")
                          .arg(models::advisor::formatValue(value, unit),
                               index.data(RulesModel::RangeTextRole).toString(),
                               models::advisor::formatValue(index.data(Qt::EditRole).toDouble(), unit)));
    }
}

void ThresholdDelegate::updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                                             const QModelIndex&) const
{
    editor->setGeometry(option.rect);
}

} // namespace runlens::widgets::advisor
