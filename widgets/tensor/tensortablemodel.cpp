#include "widgets/tensor/tensortablemodel.h"

#include "models/tensor/tensorcompare.h"
#include "widgets/common/chartpalette.h"

#include <QGuiApplication>
#include <QPalette>
#include <QSet>

#include <algorithm>
#include <bit>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>

namespace runlens::widgets::tensor {

namespace {

template<typename T> T loadRaw(const std::byte* p, bool swap)
{
    T value;
    if (swap) {
        std::byte reversed[sizeof(T)];
        std::reverse_copy(p, p + sizeof(T), reversed);
        std::memcpy(&value, reversed, sizeof(T));
    } else {
        std::memcpy(&value, p, sizeof(T));
    }
    return value;
}

/// Shortest text that reads back to the same float (or double) value.
template<typename T> QString shortest(T value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
    QString text = QString::fromLatin1(buffer, int(end - buffer));
    // Integral floats keep a ".0" as numpy and Python print them, so they do not read as integers.
    if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e')))
        text += QStringLiteral(".0");
    return text;
}

QString formatted(double value, bool scientific, int precision)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, scientific ? 'e' : 'g', precision);
}

/// Floating types whose values are exactly floats: their shortest text is that of the float.
bool isSinglePrecision(models::tensor::DType type)
{
    using models::tensor::DType;
    return type == DType::Float16 || type == DType::BFloat16 || type == DType::Float32 || type == DType::Complex64
        || type == DType::Float8E4M3 || type == DType::Float8E5M2;
}

} // namespace

TensorTableModel::TensorTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

TensorTableModel::~TensorTableModel() = default;

void TensorTableModel::setTensor(const models::tensor::Tensor& view)
{
    beginResetModel();
    m_tensor = view;
    m_rows = m_columns = 0;
    m_rowStride = m_columnStride = 0;
    if (view.rank() <= 2 && models::tensor::viewInsideData(view)) {
        switch (view.rank()) {
        case 0:
            m_rows = m_columns = 1;
            break;
        case 1:
            m_rows = view.shape[0];
            m_columns = 1;
            m_rowStride = view.strides[0];
            break;
        case 2:
            m_rows = view.shape[0];
            m_columns = view.shape[1];
            m_rowStride = view.strides[0];
            m_columnStride = view.strides[1];
            break;
        }
        // Views hold int sections only; an empty dimension empties the table.
        if (m_rows == 0 || m_columns == 0)
            m_rows = m_columns = 0;
        m_rows = std::min<std::int64_t>(m_rows, INT_MAX);
        m_columns = std::min<std::int64_t>(m_columns, INT_MAX);
    } else {
        m_tensor = {};
    }
    endResetModel();
}

void TensorTableModel::setAxisOrigins(std::int64_t rowStart, std::int64_t rowStep, std::int64_t colStart,
                                      std::int64_t colStep)
{
    m_rowStart = rowStart;
    m_rowStep = rowStep;
    m_colStart = colStart;
    m_colStep = colStep;
    if (m_rows > 0)
        emit headerDataChanged(Qt::Vertical, 0, int(m_rows) - 1);
    if (m_columns > 0)
        emit headerDataChanged(Qt::Horizontal, 0, int(m_columns) - 1);
}

void TensorTableModel::setPrecision(int digits)
{
    digits = std::clamp(digits, 1, 17);
    if (digits == m_precision)
        return;
    m_precision = digits;
    if (m_rows > 0 && m_columns > 0)
        emit dataChanged(index(0, 0), index(int(m_rows) - 1, int(m_columns) - 1), { Qt::DisplayRole });
}

void TensorTableModel::setScientific(bool scientific)
{
    if (scientific == m_scientific)
        return;
    m_scientific = scientific;
    if (m_rows > 0 && m_columns > 0)
        emit dataChanged(index(0, 0), index(int(m_rows) - 1, int(m_columns) - 1), { Qt::DisplayRole });
}

int TensorTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows);
}

int TensorTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns);
}

const std::byte* TensorTableModel::elementPointer(int row, int column) const
{
    if (row < 0 || column < 0 || row >= m_rows || column >= m_columns || !m_tensor.data)
        return nullptr;
    return m_tensor.data->data() + m_tensor.offset + row * m_rowStride + column * m_columnStride;
}

double TensorTableModel::elementValue(int row, int column) const
{
    const std::byte* p = elementPointer(row, column);
    return p ? models::tensor::loadElement(p, m_tensor.dtype, m_tensor.swap) : std::nan("");
}

QString TensorTableModel::formatElement(const std::byte* p, bool full) const
{
    using models::tensor::DType;
    const bool swap = m_tensor.swap;
    switch (m_tensor.dtype) {
    case DType::Bool:
        return std::to_integer<int>(*p) != 0 ? QStringLiteral("true") : QStringLiteral("false");
    case DType::Int8:
        return QString::number(loadRaw<std::int8_t>(p, false));
    case DType::Int16:
        return QString::number(loadRaw<std::int16_t>(p, swap));
    case DType::Int32:
        return QString::number(loadRaw<std::int32_t>(p, swap));
    case DType::Int64:
        return QString::number(qint64(loadRaw<std::int64_t>(p, swap)));
    case DType::UInt8:
        return QString::number(loadRaw<std::uint8_t>(p, false));
    case DType::UInt16:
        return QString::number(loadRaw<std::uint16_t>(p, swap));
    case DType::UInt32:
        return QString::number(loadRaw<std::uint32_t>(p, swap));
    case DType::UInt64:
        return QString::number(quint64(loadRaw<std::uint64_t>(p, swap)));
    case DType::Complex64:
    case DType::Complex128: {
        const int half = models::tensor::itemSize(m_tensor.dtype) / 2;
        const double re = models::tensor::loadElement(p, m_tensor.dtype, swap);
        const double im = m_tensor.dtype == DType::Complex64 ? double(loadRaw<float>(p + half, swap))
                                                             : loadRaw<double>(p + half, swap);
        QString imText;
        if (full)
            imText = m_tensor.dtype == DType::Complex64 ? shortest(float(im)) : shortest(im);
        else
            imText = formatted(im, m_scientific, m_precision);
        const QString reText = full ? (m_tensor.dtype == DType::Complex64 ? shortest(float(re)) : shortest(re))
                                    : formatted(re, m_scientific, m_precision);
        const bool signed_ = imText.startsWith(QLatin1Char('-'));
        return reText + (signed_ ? QString() : QStringLiteral("+")) + imText + QLatin1Char('j');
    }
    default:
        break;
    }
    const double value = models::tensor::loadElement(p, m_tensor.dtype, swap);
    if (!full)
        return formatted(value, m_scientific, m_precision);
    return isSinglePrecision(m_tensor.dtype) ? shortest(float(value)) : shortest(value);
}

QString TensorTableModel::fullText(int row, int column) const
{
    const std::byte* p = elementPointer(row, column);
    return p ? formatElement(p, true) : QString();
}

QString TensorTableModel::displayText(int row, int column) const
{
    const std::byte* p = elementPointer(row, column);
    return p ? formatElement(p, false) : QString();
}

QVariant TensorTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, column);
    case Qt::ToolTipRole: {
        QStringList position;
        if (m_tensor.rank() >= 1)
            position << QString::number(m_rowStart + row * m_rowStep);
        if (m_tensor.rank() == 2)
            position << QString::number(m_colStart + column * m_colStep);
        return QStringLiteral("[%1] = %2").arg(position.join(QStringLiteral(", ")), fullText(row, column));
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case ValueRole:
        return elementValue(row, column);
    case Qt::BackgroundRole: {
        if (!models::tensor::isFloating(m_tensor.dtype))
            return {};
        const double value = elementValue(row, column);
        const QColor base = QGuiApplication::palette().color(QPalette::Base);
        if (std::isnan(value))
            return blendColors(base, alertColor(), 0.35);
        if (std::isinf(value))
            return blendColors(base, value > 0 ? QColor(0xe0, 0x80, 0x10) : QColor(0x20, 0x80, 0xe0), 0.35);
        return {};
    }
    case Qt::ForegroundRole: {
        const double value = elementValue(row, column);
        // Zeros step back so that the values that carry information stand out (sparse weights, masks).
        if (value == 0)
            return QGuiApplication::palette().color(QPalette::PlaceholderText);
        return {};
    }
    default:
        return {};
    }
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (orientation == Qt::Vertical) {
        if (m_tensor.rank() < 1 || section < 0 || section >= m_rows)
            return {};
        return QString::number(m_rowStart + section * m_rowStep);
    }
    if (m_tensor.rank() < 2 || section < 0 || section >= m_columns)
        return {};
    return QString::number(m_colStart + section * m_colStep);
}

namespace {

struct Box
{
    int top = INT_MAX, left = INT_MAX, bottom = -1, right = -1;
    bool empty() const { return bottom < 0; }
};

Box boundingBox(const QModelIndexList& cells)
{
    Box box;
    for (const QModelIndex& cell : cells) {
        if (!cell.isValid())
            continue;
        box.top = std::min(box.top, cell.row());
        box.bottom = std::max(box.bottom, cell.row());
        box.left = std::min(box.left, cell.column());
        box.right = std::max(box.right, cell.column());
    }
    return box;
}

/// Text of the cells in `box` for which `listed` holds, the others left empty.
template<typename Listed>
QString boxText(const TensorTableModel& model, const Box& box, bool withIndices, const Listed& listed)
{
    QString text;
    if (withIndices) {
        for (int column = box.left; column <= box.right; ++column)
            text += QLatin1Char('\t') + model.headerData(column, Qt::Horizontal).toString();
        text += QLatin1Char('\n');
    }
    for (int row = box.top; row <= box.bottom; ++row) {
        if (withIndices)
            text += model.headerData(row, Qt::Vertical).toString() + QLatin1Char('\t');
        for (int column = box.left; column <= box.right; ++column) {
            if (column > box.left)
                text += QLatin1Char('\t');
            if (listed(row, column))
                text += model.fullText(row, column);
        }
        text += QLatin1Char('\n');
    }
    return text;
}

QString tsvOf(const TensorTableModel& model, const QModelIndexList& cells, bool withIndices)
{
    const Box box = boundingBox(cells);
    if (box.empty())
        return {};
    const std::int64_t area = std::int64_t(box.bottom - box.top + 1) * (box.right - box.left + 1);
    // A full box needs no membership test; otherwise cells left out stay empty.
    if (cells.size() >= area)
        return boxText(model, box, withIndices, [](int, int) { return true; });
    QSet<std::pair<int, int>> listed;
    for (const QModelIndex& cell : cells)
        listed.insert({ cell.row(), cell.column() });
    return boxText(model, box, withIndices, [&listed](int row, int column) {
        return listed.contains({ row, column });
    });
}

} // namespace

QString TensorTableModel::toTsv(const QModelIndexList& cells) const
{
    return tsvOf(*this, cells, false);
}

QString TensorTableModel::toTsvWithIndices(const QModelIndexList& cells) const
{
    return tsvOf(*this, cells, true);
}

QString TensorTableModel::selectionToTsv(const QItemSelection& selection, bool withIndices) const
{
    Box box;
    std::int64_t selected = 0;
    for (const QItemSelectionRange& range : selection) {
        if (!range.isValid() || range.model() != this)
            continue;
        box.top = std::min(box.top, range.top());
        box.bottom = std::max(box.bottom, range.bottom());
        box.left = std::min(box.left, range.left());
        box.right = std::max(box.right, range.right());
        selected += std::int64_t(range.height()) * range.width();
    }
    if (box.empty())
        return {};
    const std::int64_t area = std::int64_t(box.bottom - box.top + 1) * (box.right - box.left + 1);
    // A selection that fills its box (a drag, select-all) is copied without listing its cells one by one.
    if (selected >= area)
        return boxText(*this, box, withIndices, [](int, int) { return true; });
    return boxText(*this, box, withIndices,
                   [&selection, this](int row, int column) { return selection.contains(index(row, column)); });
}

} // namespace runlens::widgets::tensor
