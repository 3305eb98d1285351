#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

#include <functional>
#include <utility>

namespace runlens::widgets {

/// A table's filter field: keeps the top-level rows where any of the texts the panel names for a row
/// contains the filter text (case-insensitive). Panels name the texts worth matching (names, kinds), not the
/// formatted numbers.
class TextFilterProxy final : public QSortFilterProxyModel
{
public:
    using RowTexts = std::function<QStringList(const QAbstractItemModel* model, int sourceRow)>;

    TextFilterProxy(RowTexts rowTexts, QObject* parent)
        : QSortFilterProxyModel(parent)
        , m_rowTexts(std::move(rowTexts))
    { }

    void setText(const QString& text)
    {
        m_text = text.trimmed();
        invalidateFilter();
    }
    QString text() const { return m_text; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& parent) const override
    {
        if (m_text.isEmpty() || parent.isValid())
            return true;
        for (const QString& s : m_rowTexts(sourceModel(), sourceRow)) {
            if (s.contains(m_text, Qt::CaseInsensitive))
                return true;
        }
        return false;
    }

private:
    RowTexts m_rowTexts;
    QString m_text;
};

} // namespace runlens::widgets
