#include "widgets/tensor/slicecontrols.h"

#include "models/tensor/tensorslice.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStringList>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace runlens::widgets::tensor {

namespace {

/// Pause after typing before an edited expression is applied.
constexpr int kEditDelayMs = 600;

/// Each dimension's part of an expression, after `...` and the implicit trailing ranges are spelled out.
struct DimPart
{
    bool kept = false; ///< a range: the dimension stays in the view
    bool full = false; ///< a range with nothing given (`:` or `::`)
    std::int64_t index = 0; ///< normalised index when not kept
    std::int64_t start = 0; ///< first index when kept
    std::int64_t step = 1;
};

std::vector<DimPart> expand(const std::vector<models::tensor::SliceItem>& items, const std::vector<std::int64_t>& shape)
{
    const int rank = int(shape.size());
    int consumed = 0;
    for (const models::tensor::SliceItem& item : items)
        consumed += item.kind == models::tensor::SliceItem::Kind::Ellipsis ? 0 : 1;
    std::vector<DimPart> parts;
    auto whole = [&](int count) {
        for (int k = 0; k < count && int(parts.size()) < rank; ++k)
            parts.push_back(DimPart { true, true, 0, 0, 1 });
    };
    for (const models::tensor::SliceItem& item : items) {
        if (int(parts.size()) >= rank && item.kind != models::tensor::SliceItem::Kind::Ellipsis)
            break;
        if (item.kind == models::tensor::SliceItem::Kind::Ellipsis) {
            whole(rank - consumed);
            continue;
        }
        const std::int64_t n = shape[parts.size()];
        DimPart part;
        if (item.kind == models::tensor::SliceItem::Kind::Index) {
            part.index = item.index < 0 ? item.index + n : item.index;
        } else {
            part.kept = true;
            part.full = !item.start && !item.stop && !item.step;
            part.step = item.step.value_or(1);
            if (part.step > 0) {
                std::int64_t start = item.start.value_or(0);
                start = start < 0 ? std::max<std::int64_t>(start + n, 0) : std::min(start, n);
                part.start = start;
            } else {
                std::int64_t start = item.start.value_or(n - 1);
                start = start < 0 ? std::max<std::int64_t>(start + n, -1) : std::min(start, n - 1);
                part.start = start;
            }
        }
        parts.push_back(part);
    }
    whole(rank - int(parts.size()));
    return parts;
}

QString dimText(int dim, std::int64_t size)
{
    return SliceControls::tr("dim %1 (%2)").arg(dim).arg(size);
}

} // namespace

SliceControls::SliceControls(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    m_rows = new QComboBox(this);
    m_rows->setObjectName(QStringLiteral("sliceRows"));
    m_rows->setToolTip(tr("The dimension shown as rows"));
    m_cols = new QComboBox(this);
    m_cols->setObjectName(QStringLiteral("sliceColumns"));
    m_cols->setToolTip(tr("The dimension shown as columns; none shows a vector"));
    auto* dimsRow = new QHBoxLayout;
    dimsRow->addWidget(new QLabel(tr("Rows"), this));
    dimsRow->addWidget(m_rows, 1);
    dimsRow->addWidget(new QLabel(tr("Columns"), this));
    dimsRow->addWidget(m_cols, 1);
    layout->addLayout(dimsRow);

    m_indexBox = new QWidget(this);
    m_indexGrid = new QGridLayout(m_indexBox);
    m_indexGrid->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_indexBox);

    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("sliceExpression"));
    m_edit->setPlaceholderText(tr("numpy index, e.g. [0, :, 2:10:2, -1] or [..., 0]"));
    m_edit->setToolTip(tr("A numpy index expression: integers pick an index (negative counts from the end), "
                          "start:stop:step ranges keep a dimension, '...' stands for the remaining "
                          "dimensions. The result must have at most two dimensions. Applied on Enter."));
    form->addRow(tr("Slice"), m_edit);
    layout->addLayout(form);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("sliceError"));
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->setWordWrap(true);
    m_error->setVisible(false);
    layout->addWidget(m_error);

    m_editTimer = new QTimer(this);
    m_editTimer->setSingleShot(true);
    m_editTimer->setInterval(kEditDelayMs);
    connect(m_editTimer, &QTimer::timeout, this, [this] { applyText(m_edit->text(), true); });
    connect(m_edit, &QLineEdit::textEdited, this, &SliceControls::onTextEdited);
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        m_editTimer->stop();
        applyText(m_edit->text(), true);
    });
    connect(m_rows, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!m_syncing)
            onRowsChosen(i);
    });
    connect(m_cols, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!m_syncing)
            onColumnsChosen(i);
    });
    clear();
}

SliceControls::~SliceControls() = default;

void SliceControls::clear()
{
    m_tensor = {};
    m_view.reset();
    m_expression.clear();
    m_rowDim = m_colDim = -1;
    m_transposed = false;
    m_viewDims.clear();
    m_viewOrigins.clear();
    rebuild();
    m_edit->clear();
    showError({});
    setEnabled(false);
}

void SliceControls::setTensor(const models::tensor::Tensor& tensor, bool keepSlice)
{
    const bool sameShape = keepSlice && m_view && tensor.shape == m_tensor.shape;
    m_tensor = tensor;
    setEnabled(true);
    if (sameShape && applyText(m_expression, false))
        return;
    rebuild();
    resetToDefault();
}

void SliceControls::rebuild()
{
    m_editTimer->stop();
    for (const DimControls& d : std::as_const(m_dims)) {
        delete d.label;
        delete d.spin;
        delete d.slider;
    }
    m_dims.clear();
    for (int dim = 0; dim < m_tensor.rank(); ++dim) {
        const std::int64_t size = m_tensor.shape[dim];
        const int maximum = int(std::min<std::int64_t>(std::max<std::int64_t>(size - 1, 0), INT_MAX));
        DimControls d;
        d.label = new QLabel(dimText(dim, size), m_indexBox);
        d.spin = new QSpinBox(m_indexBox);
        d.spin->setObjectName(QStringLiteral("sliceIndex%1").arg(dim));
        d.spin->setRange(0, maximum);
        d.spin->setToolTip(tr("Index along dimension %1").arg(dim));
        d.slider = new QSlider(Qt::Horizontal, m_indexBox);
        d.slider->setObjectName(QStringLiteral("sliceSlider%1").arg(dim));
        d.slider->setRange(0, maximum);
        d.slider->setToolTip(d.spin->toolTip());
        m_indexGrid->addWidget(d.label, dim, 0);
        m_indexGrid->addWidget(d.spin, dim, 1);
        m_indexGrid->addWidget(d.slider, dim, 2);
        connect(d.spin, &QSpinBox::valueChanged, d.slider, &QSlider::setValue);
        connect(d.slider, &QSlider::valueChanged, d.spin, &QSpinBox::setValue);
        connect(d.spin, &QSpinBox::valueChanged, this, [this] {
            if (!m_syncing)
                onControlsChanged();
        });
        m_dims << d;
    }
    fillCombos();
}

void SliceControls::fillCombos()
{
    const QSignalBlocker blockRows(m_rows);
    const QSignalBlocker blockCols(m_cols);
    m_rows->clear();
    m_cols->clear();
    m_cols->addItem(tr("none"), -1);
    for (int dim = 0; dim < m_tensor.rank(); ++dim) {
        m_rows->addItem(dimText(dim, m_tensor.shape[dim]), dim);
        m_cols->addItem(dimText(dim, m_tensor.shape[dim]), dim);
    }
    m_rows->setEnabled(m_tensor.rank() >= 1);
    m_cols->setEnabled(m_tensor.rank() >= 2);
}

void SliceControls::resetToDefault()
{
    const int rank = m_tensor.rank();
    m_view.reset();
    m_rowDim = rank >= 2 ? rank - 2 : (rank == 1 ? 0 : -1);
    m_colDim = rank >= 2 ? rank - 1 : -1;
    {
        const QScopedValueRollback<bool> syncing(m_syncing, true);
        for (const DimControls& d : std::as_const(m_dims))
            d.spin->setValue(0);
    }
    onControlsChanged(false);
    // The default view always fits, except for an empty dimension that cannot be indexed.
    if (!m_view && applyText(QStringLiteral("[...]"), false))
        m_edit->setText(m_expression);
}

void SliceControls::updateIndexVisibility()
{
    const QScopedValueRollback<bool> syncing(m_syncing, true);
    for (int dim = 0; dim < m_dims.size(); ++dim) {
        const bool shown = dim != m_rowDim && dim != m_colDim;
        m_dims[dim].label->setVisible(shown);
        m_dims[dim].spin->setVisible(shown);
        m_dims[dim].slider->setVisible(shown);
    }
    m_rows->setCurrentIndex(m_rows->findData(m_rowDim));
    m_cols->setCurrentIndex(m_cols->findData(m_colDim));
}

QString SliceControls::controlsExpression(const std::vector<std::int64_t>& shape, int rowDim, int colDim,
                                          const std::vector<std::int64_t>& indices)
{
    QStringList parts;
    for (int dim = 0; dim < int(shape.size()); ++dim) {
        if (dim == rowDim || dim == colDim)
            parts << QStringLiteral(":");
        else
            parts << QString::number(dim < int(indices.size()) ? indices[dim] : 0);
    }
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

void SliceControls::onControlsChanged(bool emitChange)
{
    std::vector<std::int64_t> indices;
    for (const DimControls& d : std::as_const(m_dims))
        indices.push_back(d.spin->value());
    const QString text = controlsExpression(m_tensor.shape, m_rowDim, m_colDim, indices);
    m_editTimer->stop();
    m_edit->setText(text);
    applyText(text, emitChange);
}

void SliceControls::onRowsChosen(int comboIndex)
{
    const int dim = m_rows->itemData(comboIndex).toInt();
    if (comboIndex < 0 || dim == m_rowDim)
        return;
    if (dim == m_colDim)
        m_colDim = m_rowDim; // the two swap: a transposed view
    m_rowDim = dim;
    onControlsChanged();
}

void SliceControls::onColumnsChosen(int comboIndex)
{
    const int dim = m_cols->itemData(comboIndex).toInt();
    if (comboIndex < 0 || dim == m_colDim)
        return;
    if (dim >= 0 && dim == m_rowDim) {
        if (m_colDim >= 0) {
            m_rowDim = m_colDim;
        } else {
            // Rows move to the first other dimension so that rows and columns differ.
            for (int other = 0; other < m_tensor.rank(); ++other)
                if (other != dim) {
                    m_rowDim = other;
                    break;
                }
        }
    }
    m_colDim = dim;
    onControlsChanged();
}

void SliceControls::setRowDimension(int dim)
{
    onRowsChosen(m_rows->findData(dim));
}

void SliceControls::setColumnDimension(int dim)
{
    onColumnsChosen(m_cols->findData(dim));
}

void SliceControls::setIndex(int dim, std::int64_t index)
{
    if (dim >= 0 && dim < m_dims.size())
        m_dims[dim].spin->setValue(int(index));
}

std::int64_t SliceControls::index(int dim) const
{
    return dim >= 0 && dim < m_dims.size() ? m_dims[dim].spin->value() : 0;
}

QSpinBox* SliceControls::indexSpinBox(int dim) const
{
    return dim >= 0 && dim < m_dims.size() ? m_dims[dim].spin : nullptr;
}

QSlider* SliceControls::indexSlider(int dim) const
{
    return dim >= 0 && dim < m_dims.size() ? m_dims[dim].slider : nullptr;
}

void SliceControls::onTextEdited()
{
    m_editTimer->start();
}

bool SliceControls::setExpression(const QString& text)
{
    m_editTimer->stop();
    if (m_edit->text() != text)
        m_edit->setText(text);
    return applyText(text, true);
}

bool SliceControls::applyText(const QString& text, bool emitChange)
{
    const models::tensor::SliceParseResult parsed = models::tensor::parseSlice(text);
    if (!parsed.ok()) {
        showError(tr("Column %1: %2").arg(parsed.errorPosition + 1).arg(parsed.error));
        return false;
    }
    models::tensor::SliceResult sliced = models::tensor::applySlice(m_tensor, parsed.items);
    if (!sliced.tensor) {
        showError(sliced.error);
        return false;
    }
    models::tensor::Tensor view = std::move(*sliced.tensor);
    if (view.rank() > 2) {
        showError(tr("The slice has %1 dimensions; pick indices for %2 more dimensions (at most two can be shown).")
                      .arg(view.rank())
                      .arg(view.rank() - 2));
        return false;
    }

    const std::vector<DimPart> parts = expand(parsed.items, m_tensor.shape);
    QList<int> kept;
    bool allFull = true;
    for (int dim = 0; dim < int(parts.size()); ++dim)
        if (parts[dim].kept) {
            kept << dim;
            allFull = allFull && parts[dim].full;
        }
    // Keep the orientation the controls chose when the text keeps the same two dimensions.
    const bool transposed = kept.size() == 2 && m_rowDim == kept[1] && m_colDim == kept[0];
    if (transposed) {
        std::swap(view.shape[0], view.shape[1]);
        std::swap(view.strides[0], view.strides[1]);
    }

    const bool expressible = allFull && !kept.isEmpty();
    if (expressible) {
        const QScopedValueRollback<bool> syncing(m_syncing, true);
        if (!transposed) {
            m_rowDim = kept[0];
            m_colDim = kept.size() > 1 ? kept[1] : -1;
        }
        for (int dim = 0; dim < int(parts.size()) && dim < m_dims.size(); ++dim)
            if (!parts[dim].kept)
                m_dims[dim].spin->setValue(int(parts[dim].index));
    }
    updateIndexVisibility();

    m_viewDims.clear();
    m_viewOrigins.clear();
    for (const int dim : kept) {
        m_viewDims << dim;
        m_viewOrigins << std::pair(parts[dim].start, parts[dim].step);
    }
    if (transposed) {
        m_viewDims.swapItemsAt(0, 1);
        m_viewOrigins.swapItemsAt(0, 1);
    }
    m_transposed = transposed;
    m_view = std::move(view);
    m_expression = text;
    showError({});
    if (emitChange)
        emit sliceChanged(text);
    return true;
}

void SliceControls::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
    m_edit->setStyleSheet(message.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #c0392b; }"));
}

QString SliceControls::errorText() const
{
    return m_error->text();
}

SliceControls::State SliceControls::state() const
{
    return State { m_expression, m_rowDim, m_colDim };
}

void SliceControls::setState(const State& state)
{
    const int rank = m_tensor.rank();
    if (state.rowDim < rank && state.colDim < rank && (state.rowDim != state.colDim || state.rowDim < 0)) {
        m_rowDim = state.rowDim;
        m_colDim = state.colDim;
    }
    m_editTimer->stop();
    if (applyText(state.expression, false)) {
        m_edit->setText(state.expression);
        return;
    }
    resetToDefault();
}

} // namespace runlens::widgets::tensor
