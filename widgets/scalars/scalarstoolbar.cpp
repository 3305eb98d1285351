#include "widgets/scalars/scalarstoolbar.h"

#include "widgets/common/charticons.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/panelheader.h"

#include <QActionGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include <cmath>

namespace runlens::widgets::scalars {

namespace {

constexpr int kSliderSteps = 1000; // the slider works in thousandths of the weight

} // namespace

ScalarsToolbar::ScalarsToolbar(PanelHeader* header)
    : QObject(header)
{
    header->setObjectName(QStringLiteral("scalarsToolbar"));
    header->enableOverflowMenu();

    m_filterEdit = header->addFilter(QStringLiteral("tagFilter"), tr("Filter tags (regular expression)"));
    setFilterError({});
    connect(m_filterEdit, &QLineEdit::textChanged, this, &ScalarsToolbar::filterTextChanged);

    auto* smoothingLabel = new QLabel(tr("Smoothing"), header);
    m_smoothingSlider = new QSlider(Qt::Horizontal, header);
    m_smoothingSlider->setObjectName(QStringLiteral("smoothingSlider"));
    m_smoothingSlider->setRange(0, kSliderSteps - 1);
    m_smoothingSlider->setPageStep(50);
    m_smoothingSlider->setMinimumWidth(90);
    m_smoothingSlider->setMaximumWidth(170);
    m_smoothingSlider->setToolTip(
        tr("Exponential moving average weight (TensorBoard's debiased smoothing); 0 turns smoothing off"));
    m_smoothingSpin = new QDoubleSpinBox(header);
    m_smoothingSpin->setObjectName(QStringLiteral("smoothingValue"));
    m_smoothingSpin->setRange(0.0, 0.999);
    m_smoothingSpin->setDecimals(3);
    m_smoothingSpin->setSingleStep(0.01);
    m_smoothingSpin->setToolTip(m_smoothingSlider->toolTip());
    smoothingLabel->setBuddy(m_smoothingSlider);
    connect(m_smoothingSlider, &QSlider::valueChanged, this, [this](int v) {
        const double weight = v / double(kSliderSteps);
        const QSignalBlocker blocker(m_smoothingSpin);
        m_smoothingSpin->setValue(weight);
        emit smoothingChanged(weight);
    });
    connect(m_smoothingSpin, &QDoubleSpinBox::valueChanged, this, [this](double weight) {
        const QSignalBlocker blocker(m_smoothingSlider);
        m_smoothingSlider->setValue(int(std::lround(weight * kSliderSteps)));
        emit smoothingChanged(weight);
    });
    header->addWidget(smoothingLabel);
    header->addWidget(m_smoothingSlider);
    header->addWidget(m_smoothingSpin);
    header->groupForOverflow({ smoothingLabel, m_smoothingSlider, m_smoothingSpin });

    auto* xLabel = new QLabel(tr("X axis"), header);
    m_xAxisCombo = new QComboBox(header);
    m_xAxisCombo->setObjectName(QStringLiteral("xAxisMode"));
    m_xAxisCombo->addItem(tr("Step"), int(XAxisMode::Step));
    m_xAxisCombo->addItem(tr("Relative time"), int(XAxisMode::RelativeTime));
    m_xAxisCombo->addItem(tr("Wall time"), int(XAxisMode::WallTime));
    m_xAxisCombo->setToolTip(tr("Measure the x axis in steps, time since each run started, or clock time"));
    xLabel->setBuddy(m_xAxisCombo);
    connect(m_xAxisCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { emit xAxisModeChanged(XAxisMode(m_xAxisCombo->itemData(index).toInt())); });
    header->addWidget(xLabel);
    header->addWidget(m_xAxisCombo);
    header->groupForOverflow({ xLabel, m_xAxisCombo });

    m_logYCheck = new QCheckBox(tr("Log scale"), header);
    m_logYCheck->setObjectName(QStringLiteral("logScale"));
    m_logYCheck->setToolTip(tr("Logarithmic y axis (values at or below zero are not drawn)"));
    connect(m_logYCheck, &QCheckBox::toggled, this, &ScalarsToolbar::logYChanged);
    header->addWidget(m_logYCheck);

    m_outliersCheck = new QCheckBox(tr("Ignore outliers"), header);
    m_outliersCheck->setObjectName(QStringLiteral("ignoreOutliers"));
    m_outliersCheck->setToolTip(tr("Fit the y axis to the bulk of the values (around the 5th to 95th percentile), "
                                   "so that spikes and the first steps do not flatten the curves"));
    connect(m_outliersCheck, &QCheckBox::toggled, this, &ScalarsToolbar::ignoreOutliersChanged);
    header->addWidget(m_outliersCheck);

    m_fitButton = new QToolButton(header);
    m_fitButton->setObjectName(QStringLiteral("fitAll"));
    m_fitButton->setText(tr("Fit All"));
    m_fitButton->setIcon(chartIcon(QStringLiteral("chart-fit")));
    m_fitButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_fitButton->setAutoRaise(true);
    m_fitButton->setToolTip(tr("Reset the zoom of every chart to show all data"));
    connect(m_fitButton, &QToolButton::clicked, this, &ScalarsToolbar::fitAllRequested);
    header->addWidget(m_fitButton);

    // A menu button rather than a labelled combo box: the row is full at a dock's default width.
    m_cardSizeButton = new QToolButton(header);
    m_cardSizeButton->setObjectName(QStringLiteral("cardSize"));
    m_cardSizeButton->setText(tr("Cards"));
    m_cardSizeButton->setPopupMode(QToolButton::InstantPopup);
    m_cardSizeButton->setAutoRaise(true);
    m_cardSizeButton->setToolTip(tr("Size of the chart cards: smaller cards put more charts on a row"));
    auto* sizeMenu = new QMenu(m_cardSizeButton);
    m_cardSizeGroup = new QActionGroup(this);
    m_cardSizeGroup->setExclusive(true);
    const std::pair<CardSize, QString> sizes[] = { { CardSize::Small, tr("Small Cards") },
                                                   { CardSize::Medium, tr("Medium Cards") },
                                                   { CardSize::Large, tr("Large Cards") } };
    for (const auto& [size, text] : sizes) {
        QAction* action = sizeMenu->addAction(text);
        action->setCheckable(true);
        action->setChecked(size == CardSize::Medium);
        action->setData(int(size));
        m_cardSizeGroup->addAction(action);
    }
    connect(m_cardSizeGroup, &QActionGroup::triggered, this,
            [this](QAction* action) { emit cardSizeChanged(CardSize(action->data().toInt())); });
    m_cardSizeButton->setMenu(sizeMenu);
    header->addWidget(m_cardSizeButton);

    // The tag count keeps its whole text at any width: the options above leave the row before it would be
    // cut ("48 of 4…" says nothing).
    m_summaryLabel = header->addSummary(QStringLiteral("summary"), PanelHeader::TextMode::SingleLine);
    m_summaryLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_summaryLabel->setForegroundRole(QPalette::PlaceholderText);
}

void ScalarsToolbar::setFilterText(const QString& text)
{
    if (m_filterEdit->text() == text)
        return;
    const QSignalBlocker blocker(m_filterEdit);
    m_filterEdit->setText(text);
}

QString ScalarsToolbar::filterText() const
{
    return m_filterEdit->text();
}

void ScalarsToolbar::setFilterError(const QString& message)
{
    if (message.isEmpty()) {
        m_filterEdit->setPalette(QPalette());
        m_filterEdit->setToolTip(tr("Show only tags matching this regular expression (case-insensitive)"));
        return;
    }
    QPalette pal = m_filterEdit->palette();
    pal.setColor(QPalette::Text, alertColor());
    m_filterEdit->setPalette(pal);
    m_filterEdit->setToolTip(message);
}

void ScalarsToolbar::setSmoothing(double weight)
{
    const QSignalBlocker b1(m_smoothingSlider);
    const QSignalBlocker b2(m_smoothingSpin);
    m_smoothingSlider->setValue(int(std::lround(weight * kSliderSteps)));
    m_smoothingSpin->setValue(weight);
}

void ScalarsToolbar::setXAxisMode(XAxisMode mode)
{
    const QSignalBlocker blocker(m_xAxisCombo);
    m_xAxisCombo->setCurrentIndex(m_xAxisCombo->findData(int(mode)));
}

void ScalarsToolbar::setLogY(bool enabled)
{
    const QSignalBlocker blocker(m_logYCheck);
    m_logYCheck->setChecked(enabled);
}

void ScalarsToolbar::setIgnoreOutliers(bool enabled)
{
    const QSignalBlocker blocker(m_outliersCheck);
    m_outliersCheck->setChecked(enabled);
}

void ScalarsToolbar::setCardSize(CardSize size)
{
    for (QAction* action : m_cardSizeGroup->actions())
        action->setChecked(action->data().toInt() == int(size));
}

void ScalarsToolbar::setSummary(const QString& text)
{
    m_summaryLabel->setText(text);
}

} // namespace runlens::widgets::scalars
