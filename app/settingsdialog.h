#pragma once

#include "app/appsettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace runlens::app {

/// Edit > Preferences: language, theme, panel defaults (smoothing, x axis, sample limits, graph direction),
/// number format, the folder of rule files, session restore and the trace cache (its size limit, what it
/// holds now and a button that clears it). Shows the saved settings; OK saves what it
/// shows (AppSettings::save) and puts the theme and number format into effect; the caller hands the panel
/// defaults to its panels. The language is used from the next start.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);

    AppSettings settings() const;
    void setSettings(const AppSettings& settings);

    void accept() override;

private:
    void chooseRulesFolder();
    void openRulesFolder();
    void editLimits();
    void updateNumberPreview();
    void updateLimitsSummary();
    void updateCacheUsage();
    void clearCache();

    models::summary::SummaryLimits m_limits;
    QComboBox* m_language;
    QComboBox* m_theme;
    QDoubleSpinBox* m_smoothing;
    QComboBox* m_xAxis;
    QLabel* m_limitsSummary;
    QComboBox* m_graphDirection;
    QComboBox* m_decimalSeparator;
    QSpinBox* m_digits;
    QLabel* m_numberPreview;
    QLineEdit* m_rulesFolder;
    QCheckBox* m_restoreSession;
    QSpinBox* m_cacheLimit; ///< GiB; 0 turns the trace cache off
    QLabel* m_cacheUsage;
};

} // namespace runlens::app
