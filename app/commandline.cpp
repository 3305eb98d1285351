#include "app/commandline.h"

#include "importers/core/importsession.h"
#include "importers/core/report.h"
#include "importers/core/runscanner.h"
#include "importers/demo/demorun.h"
#include "models/summary/summarystore.h"
#include "widgets/distributions/distributionchart.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/scalars/scalarchart.h"

#include "models/scalars/scalarstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTextStream>

#include <cstdio>

namespace runlens::app::cli {

namespace {

QTextStream& out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream& err()
{
    static QTextStream stream(stderr);
    return stream;
}

bool checkPath(const QString& path)
{
    if (path.isEmpty()) {
        err() << QCoreApplication::translate("runlens::cli", "runlens: a PATH is required") << Qt::endl;
        return false;
    }
    if (!QFileInfo::exists(path)) {
        err() << QCoreApplication::translate("runlens::cli", "runlens: %1 does not exist").arg(path) << Qt::endl;
        return false;
    }
    return true;
}

void printJson(const QJsonObject& object)
{
    out() << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
    out().flush();
}

int scan(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("runlens::cli", "Lists what a run folder holds."));
    parser.addHelpOption();
    parser.addOption(
        { QStringLiteral("json"),
          QCoreApplication::translate("runlens::cli", "Print JSON (the stable contract) instead of text.") });
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 QCoreApplication::translate("runlens::cli", "Run folder or file."));
    parser.process(args);
    const QString path = parser.positionalArguments().value(0);
    if (!checkPath(path))
        return 2;
    const models::RunManifest manifest = importers::RunScanner().scan(path);
    if (parser.isSet(QStringLiteral("json")))
        printJson(importers::scanReportJson(manifest));
    else
        out() << importers::scanReportText(manifest) << Qt::flush;
    return 0;
}

int info(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "runlens::cli", "Imports a run folder and reports what each artifact imported to."));
    parser.addHelpOption();
    parser.addOption(
        { QStringLiteral("json"),
          QCoreApplication::translate("runlens::cli", "Print JSON (the stable contract) instead of text.") });
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 QCoreApplication::translate("runlens::cli", "Run folder or file."));
    parser.process(args);
    const QString path = parser.positionalArguments().value(0);
    if (!checkPath(path))
        return 2;
    importers::ImportSession session(importers::RunScanner().scan(path));
    session.importBlocking();
    if (parser.isSet(QStringLiteral("json")))
        printJson(importers::infoReportJson(session.manifest(), session.states()));
    else
        out() << importers::infoReportText(session.manifest(), session.states()) << Qt::flush;
    for (const models::ArtifactState& state : session.states()) {
        if (state.status == models::ImportStatus::Failed)
            return 1;
    }
    return 0;
}

int demo(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("runlens::cli", "Writes the demo run folder."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("DIR"),
                                 QCoreApplication::translate("runlens::cli", "Folder to write (created if needed)."));
    parser.process(args);
    const QString dir = parser.positionalArguments().value(0);
    if (dir.isEmpty()) {
        err() << QCoreApplication::translate("runlens::cli", "runlens demo: a DIR is required") << Qt::endl;
        return 2;
    }
    QString error;
    if (!importers::demo::DemoRun::write(dir, &error)) {
        err() << QCoreApplication::translate("runlens::cli", "runlens demo: %1").arg(error) << Qt::endl;
        return 1;
    }
    out() << QCoreApplication::translate("runlens::cli", "Demo run written to %1").arg(QDir(dir).absolutePath())
          << Qt::endl;
    return 0;
}

/// `--chart graph:NAME`: the graph whose name or file name is NAME (any graph for "*" or an empty name),
/// collapsed to its top-level groups, as SVG or PNG.
int exportGraph(const QString& path, const QString& name, const QString& outFile)
{
    importers::ImportSession session(importers::RunScanner().scan(path));
    std::vector<std::shared_ptr<const models::graph::Graph>> graphs;
    QObject::connect(
        &session, &importers::ImportSession::graphArrived, &session,
        [&graphs](int, std::shared_ptr<const models::graph::Graph> graph) { graphs.push_back(std::move(graph)); });
    session.importBlocking();
    std::shared_ptr<const models::graph::Graph> chosen;
    QStringList names;
    for (const auto& graph : graphs) {
        const QString file = QFileInfo(graph->path).fileName();
        names << file;
        if (!chosen
            && (name.isEmpty() || name == QLatin1String("*") || name == file
                || name == QString::fromStdString(graph->name)))
            chosen = graph;
    }
    if (!chosen) {
        err() << QCoreApplication::translate("runlens::cli", "runlens export: no graph '%1' in %2").arg(name, path)
              << Qt::endl;
        if (!names.isEmpty())
            err() << QCoreApplication::translate("runlens::cli", "available graphs: %1")
                         .arg(names.join(QStringLiteral(", ")))
                  << Qt::endl;
        return 1;
    }
    QString error;
    if (!widgets::graph::GraphPanel::exportGraph(chosen, outFile, &error)) {
        err() << QCoreApplication::translate("runlens::cli", "runlens export: %1").arg(error) << Qt::endl;
        return 1;
    }
    out() << QCoreApplication::translate("runlens::cli", "Wrote %1").arg(QFileInfo(outFile).absoluteFilePath())
          << Qt::endl;
    return 0;
}

/// `--chart distributions:TAG [--run RUN]`: the percentile bands of a histogram tag of one run.
int exportDistributions(const QString& path, const QString& tag, QString run, const QString& outFile)
{
    importers::ImportSession session(importers::RunScanner().scan(path));
    models::summary::SummaryStore store;
    store.setRoot(session.manifest().root);
    QObject::connect(&session, &importers::ImportSession::summariesArrived, &store,
                     &models::summary::SummaryStore::update);
    session.importBlocking();
    // A run may be given as scan and info name it ("cnn_job" for the opened folder's own run ".").
    const QStringList runs = store.runs();
    if (!run.isEmpty() && !runs.contains(run)) {
        for (const QString& candidate : runs) {
            if (store.runDisplayName(candidate) == run) {
                run = candidate;
                break;
            }
        }
    }
    if (run.isEmpty()) {
        for (const QString& candidate : store.runs(models::summary::SummaryKind::Histograms)) {
            if (store.tags(models::summary::SummaryKind::Histograms, candidate).contains(tag)) {
                run = candidate;
                break;
            }
        }
    }
    if (run.isEmpty()) {
        err()
            << QCoreApplication::translate("runlens::cli", "runlens export: no histogram tag '%1' in %2").arg(tag, path)
            << Qt::endl;
        const QStringList tags = store.allTags(models::summary::SummaryKind::Histograms);
        if (!tags.isEmpty())
            err() << QCoreApplication::translate("runlens::cli", "available tags: %1")
                         .arg(tags.join(QStringLiteral(", ")))
                  << Qt::endl;
        return 1;
    }
    QString error;
    if (!widgets::distributions::exportDistributionChart(store, run, tag, outFile, {}, QSize(800, 500), &error)) {
        err() << QCoreApplication::translate("runlens::cli", "runlens export: %1").arg(error) << Qt::endl;
        return 1;
    }
    out() << QCoreApplication::translate("runlens::cli", "Wrote %1").arg(QFileInfo(outFile).absoluteFilePath())
          << Qt::endl;
    return 0;
}

int exportChart(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("runlens::cli", "Exports a chart without a display."));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("chart"),
                       QCoreApplication::translate(
                           "runlens::cli",
                           "The chart, as KIND:NAME (for example scalars:train/loss or distributions:conv1.weight)."),
                       QStringLiteral("KIND:NAME") });
    parser.addOption({ QStringLiteral("out"),
                       QCoreApplication::translate(
                           "runlens::cli", "Output file; the format follows the extension (png, svg, pdf, csv)."),
                       QStringLiteral("FILE") });
    parser.addOption(
        { QStringLiteral("smoothing"),
          QCoreApplication::translate("runlens::cli", "Smoothing weight for scalars, 0 to 0.999 (default 0.6)."),
          QStringLiteral("W"), QStringLiteral("0.6") });
    parser.addOption({ QStringLiteral("run"),
                       QCoreApplication::translate("runlens::cli",
                                                   "For distributions: the run (default: the first run with the tag)."),
                       QStringLiteral("RUN") });
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 QCoreApplication::translate("runlens::cli", "Run folder or file."));
    parser.process(args);
    const QString path = parser.positionalArguments().value(0);
    if (!checkPath(path))
        return 2;
    const QString chart = parser.value(QStringLiteral("chart"));
    const QString outFile = parser.value(QStringLiteral("out"));
    const int colon = chart.indexOf(QLatin1Char(':'));
    if (colon <= 0 || outFile.isEmpty()) {
        err() << QCoreApplication::translate("runlens::cli",
                                             "runlens export: --chart KIND:NAME and --out FILE are required")
              << Qt::endl;
        return 2;
    }
    const QString kind = chart.left(colon);
    const QString name = chart.mid(colon + 1);
    if (kind == QLatin1String("graph"))
        return exportGraph(path, name, outFile);
    if (kind == QLatin1String("distributions"))
        return exportDistributions(path, name, parser.value(QStringLiteral("run")), outFile);
    if (kind != QLatin1String("scalars")) {
        err() << QCoreApplication::translate(
                     "runlens::cli", "runlens export: unknown chart kind '%1' (known: scalars, distributions, graph)")
                     .arg(kind)
              << Qt::endl;
        return 2;
    }
    importers::ImportSession session(importers::RunScanner().scan(path));
    models::scalars::ScalarStore store;
    QObject::connect(&session, &importers::ImportSession::scalarsArrived, &store,
                     &models::scalars::ScalarStore::append);
    session.importBlocking();
    if (!store.tags().contains(name)) {
        err() << QCoreApplication::translate("runlens::cli", "runlens export: no scalar tag '%1' in %2").arg(name, path)
              << Qt::endl;
        const QStringList tags = store.tags();
        if (!tags.isEmpty())
            err() << QCoreApplication::translate("runlens::cli", "available tags: %1")
                         .arg(tags.join(QStringLiteral(", ")))
                  << Qt::endl;
        return 1;
    }
    QString error;
    widgets::scalars::ScalarChartOptions options;
    bool smoothingOk = false;
    options.smoothing = parser.value(QStringLiteral("smoothing")).toDouble(&smoothingOk);
    if (!smoothingOk || options.smoothing < 0.0 || options.smoothing > 0.999) {
        err() << QCoreApplication::translate("runlens::cli",
                                             "runlens export: --smoothing takes a number from 0 to 0.999")
              << Qt::endl;
        return 2;
    }
    if (!widgets::scalars::exportScalarChart(store, name, outFile, options, QSize(800, 500), &error)) {
        err() << QCoreApplication::translate("runlens::cli", "runlens export: %1").arg(error) << Qt::endl;
        return 1;
    }
    out() << QCoreApplication::translate("runlens::cli", "Wrote %1").arg(QFileInfo(outFile).absoluteFilePath())
          << Qt::endl;
    return 0;
}

} // namespace

bool isSubcommand(const QStringList& arguments)
{
    static const QStringList kCommands { QStringLiteral("scan"),    QStringLiteral("info"),   QStringLiteral("advise"),
                                         QStringLiteral("compare"), QStringLiteral("record"), QStringLiteral("digest"),
                                         QStringLiteral("demo"),    QStringLiteral("export") };
    return arguments.size() > 1 && kCommands.contains(arguments.at(1));
}

bool subcommandNeedsGui(const QStringList& arguments)
{
    return arguments.size() > 1 && arguments.at(1) == QLatin1String("export");
}

int runSubcommand(const QStringList& arguments)
{
    if (!isSubcommand(arguments))
        return -1;
    const QString command = arguments.at(1);
    QStringList rest = arguments;
    rest.removeAt(1);
    rest[0] = rest[0] + QLatin1Char(' ') + command;
    if (command == QLatin1String("scan"))
        return scan(rest);
    if (command == QLatin1String("info"))
        return info(rest);
    if (command == QLatin1String("advise"))
        return advise(rest);
    if (command == QLatin1String("compare"))
        return compare(rest);
    if (command == QLatin1String("record"))
        return record(rest);
    if (command == QLatin1String("demo"))
        return demo(rest);
    if (command == QLatin1String("digest"))
        return digest(rest);
    return exportChart(rest);
}

} // namespace runlens::app::cli
