#include "app/appsettings.h"
#include "app/settingsdialog.h"
#include "importers/trace/tracecache.h"
#include "widgets/common/chartstyle.h"
#include "widgets/common/numberformat.h"
#include "widgets/common/theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include <cmath>

using namespace runlens;
using namespace runlens::app;
using namespace runlens::widgets;
using namespace runlens::widgets::scalars;

namespace {

template<typename T> T* child(QWidget& dialog, const char* name)
{
    auto* widget = dialog.findChild<T*>(QLatin1String(name));
    if (!widget)
        qFatal("no widget %s in the dialog", name);
    return widget;
}

void pick(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(data.toString()));
    box->setCurrentIndex(index);
}

/// WCAG 2 relative luminance and contrast ratio, written out from the definition (not our helpers).
double luminance(const QColor& c)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

class TestAppSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_appsettings"));
        QSettings().clear();
        m_startStyle = QApplication::style()->name();
        m_startBase = QApplication::palette().color(QPalette::Base);
    }

    void cleanup()
    {
        applyTheme(Theme::System);
        NumberFormat::setCurrent({});
        QSettings().clear();
    }

    void defaultsUntilSaved()
    {
        const AppSettings s = AppSettings::load();
        QVERIFY(s.language.isEmpty());
        QCOMPARE(s.theme, Theme::System);
        QCOMPARE(s.smoothing, 0.6); // TensorBoard's default weight
        QCOMPARE(s.xAxis, XAxisMode::Step);
        QCOMPARE(s.graphDirection, QStringLiteral("TB"));
        QCOMPARE(s.numbers.useLocale, false);
        QCOMPARE(s.numbers.significantDigits, 6);
        QVERIFY(s.restoreSession);
        QCOMPARE(s.limits.histograms, 500);
        // The rules folder is in the user's configuration, below the test-mode location.
        const QString config = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
        QCOMPARE(s.rulesFolder, config + QStringLiteral("/rules"));
    }

    void dialogRoundTrip()
    {
        QTemporaryDir rules;
        QVERIFY(rules.isValid());
        {
            SettingsDialog dialog;
            pick(child<QComboBox>(dialog, "language"), QStringLiteral("zh_CN"));
            pick(child<QComboBox>(dialog, "theme"), QStringLiteral("dark"));
            QDoubleSpinBox* smoothing = child<QDoubleSpinBox>(dialog, "smoothing");
            smoothing->selectAll();
            QTest::keyClicks(smoothing, QStringLiteral("0.85"));
            pick(child<QComboBox>(dialog, "xAxis"), int(XAxisMode::WallTime));
            pick(child<QComboBox>(dialog, "graphDirection"), QStringLiteral("LR"));
            pick(child<QComboBox>(dialog, "decimalSeparator"), true);
            child<QSpinBox>(dialog, "significantDigits")->setValue(4);
            child<QLineEdit>(dialog, "rulesFolder")->setText(rules.path());
            QCheckBox* restore = child<QCheckBox>(dialog, "restoreSession");
            QVERIFY(restore->isChecked());
            QTest::mouseClick(restore, Qt::LeftButton, {}, QPoint(4, restore->height() / 2));
            QVERIFY(!restore->isChecked());
            auto* buttons = dialog.findChild<QDialogButtonBox*>();
            QVERIFY(buttons);
            buttons->button(QDialogButtonBox::Ok)->click();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
        }

        const AppSettings loaded = AppSettings::load();
        QCOMPARE(loaded.language, QStringLiteral("zh_CN"));
        QCOMPARE(loaded.theme, Theme::Dark);
        QCOMPARE(loaded.smoothing, 0.85);
        QCOMPARE(loaded.xAxis, XAxisMode::WallTime);
        QCOMPARE(loaded.graphDirection, QStringLiteral("LR"));
        QCOMPARE(loaded.numbers.useLocale, true);
        QCOMPARE(loaded.numbers.significantDigits, 4);
        QCOMPARE(loaded.rulesFolder, rules.path());
        QCOMPARE(loaded.restoreSession, false);

        // OK put the theme and the number format into effect.
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        QVERIFY(isDark(QApplication::palette()));
        QCOMPARE(NumberFormat::current().significantDigits, 4);

        // A fresh dialog shows what was saved.
        SettingsDialog again;
        QVERIFY(again.settings() == loaded);
        QCOMPARE(child<QComboBox>(again, "theme")->currentData().toString(), QStringLiteral("dark"));
    }

    void cancelKeepsSaved()
    {
        AppSettings saved;
        saved.smoothing = 0.3;
        saved.rulesFolder = AppSettings::defaultRulesFolder();
        saved.save();
        SettingsDialog dialog;
        child<QDoubleSpinBox>(dialog, "smoothing")->setValue(0.9);
        pick(child<QComboBox>(dialog, "theme"), QStringLiteral("light"));
        dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Cancel)->click();
        QCOMPARE(AppSettings::load().smoothing, 0.3);
        QCOMPARE(AppSettings::load().theme, Theme::System);
        QCOMPARE(QApplication::style()->name(), m_startStyle); // nothing applied
    }

    void restoreDefaultsButton()
    {
        AppSettings changed;
        changed.graphDirection = QStringLiteral("LR");
        changed.numbers.significantDigits = 9;
        changed.rulesFolder = QStringLiteral("/somewhere/else");
        changed.save();
        SettingsDialog dialog;
        QCOMPARE(dialog.settings().graphDirection, QStringLiteral("LR"));
        dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::RestoreDefaults)->click();
        QCOMPARE(dialog.settings().graphDirection, QStringLiteral("TB"));
        QCOMPARE(dialog.settings().numbers.significantDigits, 6);
        QCOMPARE(dialog.settings().rulesFolder, AppSettings::defaultRulesFolder());
    }

    void traceCachePreferences()
    {
        QTemporaryDir cache;
        importers::trace::TraceCache::setDirectory(cache.path());
        QVERIFY(QDir().mkpath(cache.filePath(QStringLiteral("index"))));
        QFile entry(cache.filePath(QStringLiteral("index/0123")));
        QVERIFY(entry.open(QIODevice::WriteOnly));
        entry.write(QByteArray(5000, 'x'));
        entry.close();
        QCOMPARE(AppSettings::load().traceCacheLimit, qint64(4) << 30);

        SettingsDialog dialog;
        auto* limit = child<QSpinBox>(dialog, "traceCacheLimit");
        QCOMPARE(limit->value(), 4);
        // What the cache holds and where it is, so the user knows what Clear Cache removes.
        const QString usage = child<QLabel>(dialog, "traceCacheUsage")->text();
        QVERIFY2(usage.contains(QDir::toNativeSeparators(cache.path())), qPrintable(usage));
        QVERIFY2(usage.startsWith(QStringLiteral("5.0 KB")), qPrintable(usage));
        child<QPushButton>(dialog, "clearTraceCache")->click();
        QVERIFY(!QFileInfo::exists(entry.fileName()));
        QCOMPARE(importers::trace::TraceCache::size(), 0);
        QVERIFY2(child<QLabel>(dialog, "traceCacheUsage")->text().startsWith(QStringLiteral("0 B")),
                 qPrintable(child<QLabel>(dialog, "traceCacheUsage")->text()));

        limit->setValue(2);
        dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        QCOMPARE(AppSettings::load().traceCacheLimit, qint64(2) << 30);
        QCOMPARE(importers::trace::TraceCache::sizeLimit(), qint64(2) << 30);
        QVERIFY(importers::trace::TraceCache::enabled());

        SettingsDialog off;
        child<QSpinBox>(off, "traceCacheLimit")->setValue(0);
        QCOMPARE(child<QSpinBox>(off, "traceCacheLimit")->text(), QStringLiteral("Off"));
        off.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        QVERIFY(!importers::trace::TraceCache::enabled());
        importers::trace::TraceCache::setDirectory({});
        importers::trace::TraceCache::setSizeLimit(importers::trace::TraceCache::kDefaultSizeLimit);
    }

    void badValuesFallBack()
    {
        QSettings settings;
        settings.setValue(QStringLiteral("preferences/language"), QStringLiteral("xx_YY"));
        settings.setValue(QStringLiteral("preferences/theme"), QStringLiteral("purple"));
        settings.setValue(QStringLiteral("preferences/smoothing"), QStringLiteral("much"));
        settings.setValue(QStringLiteral("preferences/xAxis"), 7);
        settings.setValue(QStringLiteral("preferences/graphDirection"), QStringLiteral("BT"));
        settings.setValue(QStringLiteral("preferences/significantDigits"), 99);
        settings.sync();
        const AppSettings s = AppSettings::load();
        QVERIFY(s.language.isEmpty());
        QCOMPARE(s.theme, Theme::System);
        QCOMPARE(s.smoothing, 0.6);
        QCOMPARE(s.xAxis, XAxisMode::Step);
        QCOMPARE(s.graphDirection, QStringLiteral("TB"));
        QCOMPARE(s.numbers.significantDigits, NumberFormat::kMaxDigits);
        settings.setValue(QStringLiteral("preferences/smoothing"), 5.0);
        QCOMPARE(AppSettings::load().smoothing, AppSettings::kMaxSmoothing);
    }

    void systemThemeRestoresTheStart()
    {
        applyTheme(Theme::Dark);
        QVERIFY(isDark(QApplication::palette()));
        applyTheme(Theme::System);
        QCOMPARE(QApplication::style()->name(), m_startStyle);
        QCOMPARE(QApplication::palette().color(QPalette::Base), m_startBase);
    }

    void darkChartsAreReadable()
    {
        applyTheme(Theme::Dark);
        const ChartTheme theme = chartTheme(QApplication::palette());
        // WCAG AA asks 4.5:1 for small text; ticks and labels use the muted colour.
        QVERIFY2(contrast(theme.muted, theme.background) >= 4.5,
                 qPrintable(QString::number(contrast(theme.muted, theme.background))));
        QVERIFY(contrast(theme.text, theme.background) >= 7.0);
        QVERIFY(contrast(theme.gridLine, theme.background) > 1.2); // visible, but quieter than the data

        // A chart styled after the theme change draws a dark background with light tick labels.
        QCustomPlot plot;
        plot.resize(300, 200);
        const ChartChrome chrome = styleChartAxes(&plot, plot.font());
        QVERIFY(luminance(chrome.background) < 0.05);
        QVERIFY(contrast(plot.xAxis->tickLabelColor(), chrome.background) >= 4.5);
        const QImage image = plot.toPixmap(300, 200).toImage();
        QVERIFY(luminance(image.pixelColor(2, 2)) < 0.05);
        QVERIFY(luminance(image.pixelColor(150, 100)) < 0.05);

        applyTheme(Theme::Light);
        QCustomPlot light;
        styleChartAxes(&light, light.font());
        QVERIFY(luminance(light.toPixmap(300, 200).toImage().pixelColor(2, 2)) > 0.9);
    }

    void numberFormats()
    {
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        NumberFormat c;
        c.significantDigits = 4;
        QCOMPARE(c.format(12.345678), QStringLiteral("12.35"));
        NumberFormat local = c;
        local.useLocale = true;
        QCOMPARE(local.format(12.345678), QStringLiteral("12,35"));
        QCOMPARE(local.format(std::nan("")), QStringLiteral("NaN"));
        NumberFormat::setCurrent(local);
        QCOMPARE(formatNumber(0.5), QStringLiteral("0,5"));
        NumberFormat wide;
        wide.significantDigits = 40; // clamped to what a double holds
        NumberFormat::setCurrent(wide);
        QCOMPARE(NumberFormat::current().significantDigits, NumberFormat::kMaxDigits);
        QLocale::setDefault(before);
    }

    void screenshot()
    {
        // Renders the dialog in the dark theme, kept for a visual check when RUNLENS_SETTINGS_PNG names a file.
        QTemporaryDir scratch;
        QString out = qEnvironmentVariable("RUNLENS_SETTINGS_PNG");
        if (out.isEmpty())
            out = scratch.filePath(QStringLiteral("settings.png"));
        applyTheme(Theme::Dark);
        SettingsDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.grab().save(out));
    }

private:
    QString m_startStyle;
    QColor m_startBase;
};

QTEST_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
