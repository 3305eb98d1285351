#include "widgets/common/chartexporter.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/chartstyle.h"

#include <QAction>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include <cmath>
#include <limits>
#include <memory>

using namespace runlens;
using namespace runlens::widgets;

namespace {

std::unique_ptr<QCustomPlot> samplePlot()
{
    auto plot = std::make_unique<QCustomPlot>();
    QCPGraph* graph = plot->addGraph();
    QVector<double> x, y;
    for (int i = 0; i < 200; ++i) {
        x << i;
        y << std::sin(i * 0.05);
    }
    graph->setData(x, y, true);
    graph->setPen(QPen(runColor(0), 2));
    plot->xAxis->setLabel(QStringLiteral("Step"));
    plot->rescaleAxes();
    plot->resize(400, 300);
    return plot;
}

ChartData sampleData()
{
    ChartData data;
    data.title = QStringLiteral("train/loss");
    data.xLabel = QStringLiteral("Step");
    data.yLabel = QStringLiteral("loss");
    data.seriesColumn = QStringLiteral("run");
    data.columns = { QStringLiteral("step"), QStringLiteral("value") };
    ChartSeriesData a;
    a.name = QStringLiteral("run, \"quoted\"");
    a.columns = { { 0, 1, 2 }, { 0.1, 1.0 / 3.0, 2.5e-12 } };
    ChartSeriesData b;
    b.name = QStringLiteral("plain");
    b.columns = { { 10, 20 }, { std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity() } };
    data.series = { a, b };
    return data;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Splits one CSV line honouring double quotes.
QStringList splitCsv(const QString& line)
{
    QStringList out;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line.at(i + 1) == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << field;
            field.clear();
        } else {
            field += c;
        }
    }
    out << field;
    return out;
}

} // namespace

class TestChartExporter : public QObject
{
    Q_OBJECT
private slots:
    void exportTitleHook()
    {
        // While exporting, a title row stands above the plot; afterwards the plot is as it was.
        QWidget owner;
        QCustomPlot plot;
        const int rows = plot.plotLayout()->rowCount();
        int asked = 0;
        const auto hook = runlens::widgets::exportTitleHook(&plot, &owner, [&asked] {
            ++asked;
            return QStringLiteral("Step time breakdown");
        });
        hook(true);
        QCOMPARE(plot.plotLayout()->rowCount(), rows + 1);
        auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
        QVERIFY(title);
        QCOMPARE(title->text(), QStringLiteral("Step time breakdown"));
        QCOMPARE(title->font().weight(), QFont::DemiBold);
        QCOMPARE(asked, 1);
        hook(false);
        QCOMPARE(plot.plotLayout()->rowCount(), rows);
        QVERIFY(!qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0)));
    }

    void formats()
    {
        QCOMPARE(ChartExporter::formatForFileName(QStringLiteral("a/b.PNG")), ChartExporter::Format::Png);
        QCOMPARE(ChartExporter::formatForFileName(QStringLiteral("x.svg")), ChartExporter::Format::Svg);
        QCOMPARE(ChartExporter::formatForFileName(QStringLiteral("x.pdf")), ChartExporter::Format::Pdf);
        QCOMPARE(ChartExporter::formatForFileName(QStringLiteral("x.csv")), ChartExporter::Format::Csv);
        QVERIFY(!ChartExporter::formatForFileName(QStringLiteral("x.jpeg")));
        QVERIFY(ChartExporter::fileDialogFilter(ChartExporter::Format::Png).contains(QStringLiteral("*.png")));
    }

    void png()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        QString error;
        QVERIFY2(ChartExporter::exportChart(plot.get(), {}, path, {}, &error), qPrintable(error));
        QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(800, 600)); // 2x the widget size
        // The curve is drawn: some pixels have the series colour.
        const QColor c = runColor(0);
        int hits = 0;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2) {
                const QColor p = image.pixelColor(x, y);
                hits += std::abs(p.red() - c.red()) < 30 && std::abs(p.green() - c.green()) < 30
                    && std::abs(p.blue() - c.blue()) < 30;
            }
        }
        QVERIFY(hits > 50);
    }

    void pngExplicitSize()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        const QString path = dir.filePath(QStringLiteral("small.png"));
        QVERIFY(ChartExporter::savePng(plot.get(), path, QSize(200, 100), 1.0));
        QCOMPARE(QImage(path).size(), QSize(200, 100));
    }

    void svg()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        const QString path = dir.filePath(QStringLiteral("chart.svg"));
        QString error;
        QVERIFY2(ChartExporter::exportChart(plot.get(), {}, path, {}, &error), qPrintable(error));
        const QByteArray svg = readAll(path);
        QVERIFY(svg.startsWith("<?xml"));
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("</svg>"));
        QVERIFY(svg.contains("<path") || svg.contains("<polyline"));
    }

    void pdf()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        const QString path = dir.filePath(QStringLiteral("chart.pdf"));
        QString error;
        QVERIFY2(ChartExporter::exportChart(plot.get(), {}, path, {}, &error), qPrintable(error));
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY(pdf.size() > 500);
    }

    void csvRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.csv"));
        const ChartData data = sampleData();
        QString error;
        QVERIFY2(ChartExporter::exportChart(nullptr, data, path, {}, &error), qPrintable(error));
        const QStringList lines = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 3 + 2); // header + one row per point
        QCOMPARE(lines.at(0), QStringLiteral("run,step,value"));
        int row = 1;
        for (const ChartSeriesData& s : data.series) {
            for (std::size_t i = 0; i < s.rowCount(); ++i, ++row) {
                const QStringList fields = splitCsv(lines.at(row));
                QCOMPARE(fields.size(), 3);
                QCOMPARE(fields.at(0), s.name);
                for (int c = 0; c < 2; ++c) {
                    bool ok = false;
                    const double v = fields.at(c + 1).toDouble(&ok);
                    QVERIFY2(ok, qPrintable(fields.at(c + 1)));
                    const double expected = s.columns[std::size_t(c)][i];
                    if (std::isnan(expected))
                        QVERIFY(std::isnan(v));
                    else
                        QCOMPARE(v, expected); // exact: shortest round-trip text
                }
            }
        }
        QVERIFY(lines.at(1).startsWith(QStringLiteral("\"run, \"\"quoted\"\"\",")));

        // Whole numbers are written in plain digits (no exponent), fractions in shortest round-trip form.
        ChartData numbers;
        numbers.seriesColumn = QStringLiteral("s");
        numbers.columns << QStringLiteral("v");
        ChartSeriesData series;
        series.name = QStringLiteral("x");
        series.columns.push_back({ 1500000000.0, -42.0, 0.125, 1e20 });
        numbers.series.push_back(series);
        QCOMPARE(ChartExporter::toCsv(numbers), QByteArray("s,v\nx,1500000000\nx,-42\nx,0.125\nx,1e+20\n"));
    }

    void errors()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        QString error;
        QVERIFY(!ChartExporter::exportChart(plot.get(), {}, dir.filePath(QStringLiteral("x.bmp")), {}, &error));
        QVERIFY(error.contains(QStringLiteral("x.bmp")));
        error.clear();
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/x.png"));
        QVERIFY(!ChartExporter::exportChart(plot.get(), {}, missing, {}, &error));
        QVERIFY(error.contains(missing));
    }

    void exportMenuDefaults()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        auto* menu = new ChartExportMenu(plot.get());
        QCOMPARE(menu->parent(), plot.get());
        menu->setBaseName(QStringLiteral("train/loss: eval"));
        QCOMPARE(menu->baseName(), QStringLiteral("train_loss_ eval"));
        menu->setDefaultDirectory(dir.path());
        menu->setDataProvider(sampleData);
        QCOMPARE(menu->actions().size(), 4);
        QMenu popup;
        menu->addTo(&popup);
        QCOMPARE(popup.actions().size(), 4);
        QVERIFY(popup.actions().at(0)->text().contains(QStringLiteral("PNG")));

        QSignalSpy exported(menu, &ChartExportMenu::exported);
        menu->action(ChartExporter::Format::Png)->trigger();
        QCOMPARE(exported.count(), 1);
        const QString first = exported.at(0).at(0).toString();
        QCOMPARE(first, dir.filePath(QStringLiteral("train_loss_ eval.png")));
        QVERIFY(!QImage(first).isNull());
        // A second export never overwrites the first.
        menu->action(ChartExporter::Format::Png)->trigger();
        QCOMPARE(exported.count(), 2);
        QCOMPARE(exported.at(1).at(0).toString(), dir.filePath(QStringLiteral("train_loss_ eval-2.png")));
        // CSV uses the data provider.
        const QString csv = menu->requestExport(ChartExporter::Format::Csv);
        QVERIFY(readAll(csv).startsWith("run,step,value\n"));
    }

    void exportMenuProvider()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        ChartExportMenu menu(plot.get(), nullptr);
        menu.setBaseName(QStringLiteral("acc"));
        QString asked;
        ChartExporter::Format askedFormat = ChartExporter::Format::Png;
        const QString target = dir.filePath(QStringLiteral("picked.svg"));
        menu.setFileNameProvider([&](ChartExporter::Format format, const QString& suggested) {
            asked = suggested;
            askedFormat = format;
            return target;
        });
        QSignalSpy exported(&menu, &ChartExportMenu::exported);
        QSignalSpy failed(&menu, &ChartExportMenu::exportFailed);
        QCOMPARE(menu.requestExport(ChartExporter::Format::Svg), target);
        QCOMPARE(askedFormat, ChartExporter::Format::Svg);
        QVERIFY(asked.endsWith(QStringLiteral("acc.svg")));
        QCOMPARE(exported.count(), 1);
        QVERIFY(readAll(target).contains("<svg"));

        // Cancelling (empty name) does nothing.
        menu.setFileNameProvider([](ChartExporter::Format, const QString&) { return QString(); });
        QVERIFY(menu.requestExport(ChartExporter::Format::Pdf).isEmpty());
        QCOMPARE(exported.count(), 1);
        QCOMPARE(failed.count(), 0);

        // A failure is reported with the file name.
        const QString bad = dir.filePath(QStringLiteral("missing/x.pdf"));
        menu.setFileNameProvider([&](ChartExporter::Format, const QString&) { return bad; });
        QVERIFY(menu.requestExport(ChartExporter::Format::Pdf).isEmpty());
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(bad));
    }

    void palette()
    {
        QSet<QRgb> seen;
        for (int i = 0; i < runColorCount(); ++i) {
            const QColor c = runColor(i);
            QVERIFY(c.isValid());
            QCOMPARE(c.alpha(), 255);
            seen.insert(c.rgb());
        }
        QCOMPARE(seen.size(), runColorCount());
        QCOMPARE(runColor(3), runColor(3));
        QVERIFY(runColor(runColorCount()) != runColor(0));
        QVERIFY(runColor(2 * runColorCount()) != runColor(runColorCount()));
        QCOMPARE(runColor(-1), runColor(0));
        QCOMPARE(blendColors(Qt::black, Qt::white, 0.0), QColor(Qt::black));
        QCOMPARE(blendColors(Qt::black, Qt::white, 1.0), QColor(Qt::white));
    }
};

QTEST_MAIN(TestChartExporter)
#include "tst_chartexporter.moc"
