#include "app/settingsdialog.h"

#include "app/summarylimitsdialog.h"
#include "importers/trace/tracecache.h"
#include "models/core/runbrowsermodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace runlens::app {

namespace {

void selectData(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    box->setCurrentIndex(index >= 0 ? index : 0);
}

QGroupBox* group(const QString& title, QFormLayout* form, QWidget* parent)
{
    auto* box = new QGroupBox(title, parent);
    box->setLayout(form);
    return box;
}

} // namespace

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent)
    , m_language(new QComboBox(this))
    , m_theme(new QComboBox(this))
    , m_smoothing(new QDoubleSpinBox(this))
    , m_xAxis(new QComboBox(this))
    , m_limitsSummary(new QLabel(this))
    , m_graphDirection(new QComboBox(this))
    , m_decimalSeparator(new QComboBox(this))
    , m_digits(new QSpinBox(this))
    , m_numberPreview(new QLabel(this))
    , m_rulesFolder(new QLineEdit(this))
    , m_restoreSession(new QCheckBox(tr("&Reopen the last session when RunLens starts without a folder"), this))
    , m_cacheLimit(new QSpinBox(this))
    , m_cacheUsage(new QLabel(this))
{
    setWindowTitle(tr("Preferences"));

    m_language->setObjectName(QStringLiteral("language"));
    const QString systemLanguage = QLocale::system().nativeLanguageName();
    m_language->addItem(systemLanguage.isEmpty() ? tr("System") : tr("System (%1)").arg(systemLanguage), QString());
    for (const auto& [code, name] : AppSettings::languages())
        m_language->addItem(name, code);
    m_language->setToolTip(tr("Language of the interface; takes effect the next time RunLens starts"));
    m_theme->setObjectName(QStringLiteral("theme"));
    m_theme->addItem(tr("System"), widgets::themeKey(widgets::Theme::System));
    m_theme->addItem(tr("Light"), widgets::themeKey(widgets::Theme::Light));
    m_theme->addItem(tr("Dark"), widgets::themeKey(widgets::Theme::Dark));
    m_theme->setToolTip(tr("Colours of the window, the panels and the charts"));
    auto* appearance = new QFormLayout;
    appearance->addRow(tr("&Language:"), m_language);
    auto* restartNote = new QLabel(tr("A new language is used from the next start of RunLens."), this);
    restartNote->setForegroundRole(QPalette::PlaceholderText);
    appearance->addRow(QString(), restartNote);
    appearance->addRow(tr("&Theme:"), m_theme);

    m_smoothing->setObjectName(QStringLiteral("smoothing"));
    m_smoothing->setRange(0.0, AppSettings::kMaxSmoothing);
    m_smoothing->setDecimals(3);
    m_smoothing->setSingleStep(0.05);
    m_smoothing->setToolTip(tr("Smoothing weight of the Scalars panel when RunLens starts (0 turns it off)"));
    m_xAxis->setObjectName(QStringLiteral("xAxis"));
    m_xAxis->addItem(tr("Step"), int(widgets::scalars::XAxisMode::Step));
    m_xAxis->addItem(tr("Relative time"), int(widgets::scalars::XAxisMode::RelativeTime));
    m_xAxis->addItem(tr("Wall time"), int(widgets::scalars::XAxisMode::WallTime));
    m_xAxis->setToolTip(tr("What the x axis of scalar charts measures when RunLens starts"));
    auto* limitsButton = new QPushButton(tr("Sample &Limits…"), this);
    limitsButton->setObjectName(QStringLiteral("limits"));
    limitsButton->setToolTip(tr("How many values per tag the summary readers keep"));
    auto* limitsRow = new QHBoxLayout;
    limitsRow->addWidget(m_limitsSummary, 1);
    limitsRow->addWidget(limitsButton);
    m_graphDirection->setObjectName(QStringLiteral("graphDirection"));
    m_graphDirection->addItem(tr("Top down"), QStringLiteral("TB"));
    m_graphDirection->addItem(tr("Left to right"), QStringLiteral("LR"));
    m_graphDirection->setToolTip(tr("Direction of the data flow in the Graph panel"));
    auto* panels = new QFormLayout;
    panels->addRow(tr("Scalar &smoothing:"), m_smoothing);
    panels->addRow(tr("Scalar &x axis:"), m_xAxis);
    panels->addRow(tr("Summary samples:"), limitsRow);
    panels->addRow(tr("&Graph direction:"), m_graphDirection);

    m_decimalSeparator->setObjectName(QStringLiteral("decimalSeparator"));
    m_decimalSeparator->addItem(tr("Point (1234.5)"), false);
    m_decimalSeparator->addItem(tr("As the locale writes it (%1)").arg(QLocale().toString(1234.5, 'f', 1)), true);
    m_decimalSeparator->setToolTip(tr("How values are written in tooltips and tables"));
    m_digits->setObjectName(QStringLiteral("significantDigits"));
    m_digits->setRange(widgets::NumberFormat::kMinDigits, widgets::NumberFormat::kMaxDigits);
    m_digits->setToolTip(tr("Significant digits of values in tooltips and tables"));
    m_numberPreview->setObjectName(QStringLiteral("numberPreview"));
    auto* numbers = new QFormLayout;
    numbers->addRow(tr("&Decimal separator:"), m_decimalSeparator);
    numbers->addRow(tr("Significant &digits:"), m_digits);
    numbers->addRow(tr("Example:"), m_numberPreview);

    m_rulesFolder->setObjectName(QStringLiteral("rulesFolder"));
    m_rulesFolder->setMinimumWidth(280);
    m_rulesFolder->setToolTip(tr("The Advisor reads rule threshold files (*.json) from this folder"));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    browse->setToolTip(tr("Choose another folder for rule files"));
    auto* open = new QPushButton(tr("&Open"), this);
    open->setObjectName(QStringLiteral("openRulesFolder"));
    open->setToolTip(tr("Show the folder in the file manager (it is created if missing)"));
    auto* reset = new QPushButton(tr("De&fault"), this);
    reset->setToolTip(tr("Use %1").arg(QDir::toNativeSeparators(AppSettings::defaultRulesFolder())));
    auto* rulesRow = new QHBoxLayout;
    rulesRow->addWidget(m_rulesFolder, 1);
    rulesRow->addWidget(browse);
    rulesRow->addWidget(open);
    rulesRow->addWidget(reset);
    auto* advisor = new QFormLayout;
    advisor->addRow(tr("Rules folder:"), rulesRow);

    m_restoreSession->setObjectName(QStringLiteral("restoreSession"));
    m_restoreSession->setToolTip(
        tr("Open the folders of the last session again, with their docks, zoom ranges, expanded graph groups "
           "and selected tensors"));
    auto* sessions = new QFormLayout;
    sessions->addRow(m_restoreSession);

    m_cacheLimit->setObjectName(QStringLiteral("traceCacheLimit"));
    m_cacheLimit->setRange(0, 1024);
    m_cacheLimit->setSuffix(tr(" GiB"));
    m_cacheLimit->setSpecialValueText(tr("Off"));
    m_cacheLimit->setToolTip(tr("Room for inflated .gz traces and the indexes that let an unchanged trace open "
                                "without being read again; the least recently used are removed first"));
    m_cacheUsage->setObjectName(QStringLiteral("traceCacheUsage"));
    m_cacheUsage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* clear = new QPushButton(tr("&Clear Cache"), this);
    clear->setObjectName(QStringLiteral("clearTraceCache"));
    clear->setToolTip(tr("Remove everything in the trace cache now; traces are read in full the next time"));
    auto* usageRow = new QHBoxLayout;
    usageRow->addWidget(m_cacheUsage, 1);
    usageRow->addWidget(clear);
    auto* cache = new QFormLayout;
    cache->addRow(tr("Size &limit:"), m_cacheLimit);
    cache->addRow(tr("In use:"), usageRow);
    connect(clear, &QPushButton::clicked, this, &SettingsDialog::clearCache);

    auto* buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    buttons->button(QDialogButtonBox::RestoreDefaults)->setToolTip(tr("Show the default of every preference"));
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
        AppSettings defaults;
        defaults.rulesFolder = AppSettings::defaultRulesFolder();
        setSettings(defaults);
    });
    connect(limitsButton, &QPushButton::clicked, this, &SettingsDialog::editLimits);
    connect(browse, &QPushButton::clicked, this, &SettingsDialog::chooseRulesFolder);
    connect(open, &QPushButton::clicked, this, &SettingsDialog::openRulesFolder);
    connect(reset, &QPushButton::clicked, this,
            [this] { m_rulesFolder->setText(QDir::toNativeSeparators(AppSettings::defaultRulesFolder())); });
    connect(m_decimalSeparator, &QComboBox::currentIndexChanged, this, &SettingsDialog::updateNumberPreview);
    connect(m_digits, &QSpinBox::valueChanged, this, &SettingsDialog::updateNumberPreview);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(group(tr("Appearance"), appearance, this));
    layout->addWidget(group(tr("Panels"), panels, this));
    layout->addWidget(group(tr("Numbers"), numbers, this));
    layout->addWidget(group(tr("Advisor"), advisor, this));
    layout->addWidget(group(tr("Sessions"), sessions, this));
    layout->addWidget(group(tr("Trace Cache"), cache, this));
    layout->addStretch(1);
    layout->addWidget(buttons);
    setSettings(AppSettings::load());
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s;
    s.language = m_language->currentData().toString();
    s.theme = widgets::themeFromKey(m_theme->currentData().toString());
    s.smoothing = m_smoothing->value();
    s.xAxis = widgets::scalars::XAxisMode(m_xAxis->currentData().toInt());
    s.limits = m_limits;
    s.graphDirection = m_graphDirection->currentData().toString();
    s.numbers.useLocale = m_decimalSeparator->currentData().toBool();
    s.numbers.significantDigits = m_digits->value();
    const QString folder = m_rulesFolder->text().trimmed();
    s.rulesFolder = folder.isEmpty() ? AppSettings::defaultRulesFolder() : QDir::fromNativeSeparators(folder);
    s.restoreSession = m_restoreSession->isChecked();
    s.traceCacheLimit = qint64(m_cacheLimit->value()) << 30;
    return s;
}

void SettingsDialog::setSettings(const AppSettings& s)
{
    selectData(m_language, s.language);
    selectData(m_theme, widgets::themeKey(s.theme));
    m_smoothing->setValue(s.smoothing);
    selectData(m_xAxis, int(s.xAxis));
    m_limits = s.limits;
    selectData(m_graphDirection, s.graphDirection);
    selectData(m_decimalSeparator, s.numbers.useLocale);
    m_digits->setValue(s.numbers.significantDigits);
    m_rulesFolder->setText(QDir::toNativeSeparators(s.rulesFolder));
    m_restoreSession->setChecked(s.restoreSession);
    m_cacheLimit->setValue(int(std::min<qint64>((s.traceCacheLimit + (qint64(1) << 29)) >> 30, 1024)));
    updateCacheUsage();
    updateNumberPreview();
    updateLimitsSummary();
}

void SettingsDialog::accept()
{
    const AppSettings s = settings();
    s.save();
    s.apply();
    QDialog::accept();
}

void SettingsDialog::chooseRulesFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Rules Folder"),
                                                          QDir::fromNativeSeparators(m_rulesFolder->text()));
    if (!dir.isEmpty())
        m_rulesFolder->setText(QDir::toNativeSeparators(dir));
}

void SettingsDialog::openRulesFolder()
{
    const QString folder = settings().rulesFolder;
    if (!QDir().mkpath(folder)) {
        QMessageBox::warning(
            this, tr("Rules Folder"),
            tr("Cannot create %1. Choose a folder you can write to.").arg(QDir::toNativeSeparators(folder)));
        return;
    }
    QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
}

void SettingsDialog::editLimits()
{
    SummaryLimitsDialog dialog(this);
    dialog.setLimits(m_limits);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_limits = dialog.limits();
    updateLimitsSummary();
}

void SettingsDialog::updateNumberPreview()
{
    widgets::NumberFormat format;
    format.useLocale = m_decimalSeparator->currentData().toBool();
    format.significantDigits = m_digits->value();
    m_numberPreview->setText(format.format(1234.56789012345) + QStringLiteral("   ") + format.format(0.000123456789));
}

void SettingsDialog::updateCacheUsage()
{
    const QString folder = QDir::toNativeSeparators(importers::trace::TraceCache::directory());
    m_cacheUsage->setText(tr("%1 in %2").arg(models::formatByteSize(importers::trace::TraceCache::size()), folder));
}

void SettingsDialog::clearCache()
{
    if (!importers::trace::TraceCache::clear())
        QMessageBox::warning(this, tr("Trace Cache"),
                             tr("Some files in %1 could not be removed.")
                                 .arg(QDir::toNativeSeparators(importers::trace::TraceCache::directory())));
    updateCacheUsage();
}

void SettingsDialog::updateLimitsSummary()
{
    const auto count = [](int n) { return n == 0 ? tr("all") : QLocale().toString(n); };
    m_limitsSummary->setText(tr("scalars %1 · histograms %2 · images %3")
                                 .arg(count(m_limits.scalars), count(m_limits.histograms), count(m_limits.images)));
    m_limitsSummary->setToolTip(tr("Values kept per tag; new limits apply when the run folder is read again"));
}

} // namespace runlens::app
