#include "tensorcomparewidget.h"

#include <QComboBox>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace runlens::tensorview {

struct TensorCompareWidget::Outcome
{
};

struct TensorCompareWidget::Job
{
};

TensorCompareWidget::TensorCompareWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_modeCombo = new QComboBox(this);
    m_summary = new QLabel(this);
    m_table = new QTableWidget(this);
    layout->addWidget(m_modeCombo);
    layout->addWidget(m_summary);
    layout->addWidget(m_table);
}

TensorCompareWidget::~TensorCompareWidget() = default;

void TensorCompareWidget::setTensors(const tensor::Tensor& a, const QString& labelA, const tensor::Tensor& b,
                                     const QString& labelB)
{
    m_a = a;
    m_b = b;
    m_labelA = labelA;
    m_labelB = labelB;
    m_hasTensors = true;
}

void TensorCompareWidget::clear()
{
    m_hasTensors = false;
}

void TensorCompareWidget::setMode(Mode mode)
{
    m_mode = mode;
}

QString TensorCompareWidget::summaryText() const
{
    return m_summary->text();
}

std::vector<std::vector<std::int64_t>> TensorCompareWidget::largestIndices() const
{
    return {};
}

} // namespace runlens::tensorview
