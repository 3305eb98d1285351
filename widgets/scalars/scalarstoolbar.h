#pragma once

#include "widgets/common/cardgrid.h"
#include "widgets/scalars/scalarformat.h"

#include <QObject>

class QActionGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSlider;
class QToolButton;
class QWidget;

namespace runlens::widgets {
class PanelHeader;
}

namespace runlens::widgets::scalars {

/// The controls of the Scalars panel's header: tag filter, smoothing (slider and value), x-axis mode, log
/// scale, ignore outliers, "Fit All", card size and the tag count. It puts them on `header` (buttons and
/// options leave for the header's overflow menu in a narrow dock; the filter and the tag count stay), only
/// shows values and reports what the user changes; the setters do not emit, so the panel can keep it in
/// sync without feedback loops.
class ScalarsToolbar final : public QObject
{
    Q_OBJECT
public:
    explicit ScalarsToolbar(PanelHeader* header);

    void setFilterText(const QString& text);
    QString filterText() const;
    /// Shows the filter in red with `message` as tooltip; an empty message restores the normal look.
    void setFilterError(const QString& message);
    void setSmoothing(double weight);
    void setXAxisMode(XAxisMode mode);
    void setLogY(bool enabled);
    void setIgnoreOutliers(bool enabled);
    void setSummary(const QString& text);
    void setCardSize(CardSize size);

signals:
    void filterTextChanged(const QString& text);
    void smoothingChanged(double weight);
    void xAxisModeChanged(runlens::widgets::scalars::XAxisMode mode);
    void logYChanged(bool enabled);
    void ignoreOutliersChanged(bool enabled);
    void fitAllRequested();
    void cardSizeChanged(runlens::widgets::CardSize size);

private:
    QLineEdit* m_filterEdit = nullptr;
    QSlider* m_smoothingSlider = nullptr;
    QDoubleSpinBox* m_smoothingSpin = nullptr;
    QComboBox* m_xAxisCombo = nullptr;
    QCheckBox* m_logYCheck = nullptr;
    QCheckBox* m_outliersCheck = nullptr;
    QToolButton* m_fitButton = nullptr;
    QToolButton* m_cardSizeButton = nullptr;
    QActionGroup* m_cardSizeGroup = nullptr;
    QLabel* m_summaryLabel = nullptr;
};

} // namespace runlens::widgets::scalars
