#include "app/appsettings.h"
#include "app/commandline.h"
#include "app/mainwindow.h"
#include "app/singleinstance.h"
#include "widgets/accuracy/accuracypanel.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/cluster/rankstepheatmap.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QScreen>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <functional>
#include <memory>

namespace {

QString languageFromArguments(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == QLatin1String("--lang") && i + 1 < argc)
            return QString::fromLocal8Bit(argv[i + 1]);
        if (arg.startsWith(QLatin1String("--lang=")))
            return arg.mid(7);
    }
    return {};
}

QtMessageHandler g_defaultHandler = nullptr;

/// Without a display, Qt's offscreen platform reports things that only matter to a windowing system;
/// they would read like errors in a terminal or a CI log.
void quietOffscreenMessages(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type != QtCriticalMsg && type != QtFatalMsg
        && (message.contains(QLatin1String("propagateSizeHints"))
            || message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))))
        return;
    if (g_defaultHandler)
        g_defaultHandler(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qPrintable(message));
}

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

void installTranslators(QCoreApplication& app, const QString& requested)
{
    const QLocale locale = requested.isEmpty() ? QLocale::system() : QLocale(requested);
    if (locale.language() == QLocale::English || locale.language() == QLocale::C)
        return;
    auto* own = new QTranslator(&app);
    if (own->load(locale, QStringLiteral("runlens"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(own);
    auto* qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

void setIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("RunLens"));
    QCoreApplication::setApplicationName(QStringLiteral("runlens"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RUNLENS_VERSION));
}

/// Where a screenshot goes when there is no display: the current folder, unless that is inside the
/// opened run folder (which is never written to); then the temporary folder.
QString fallbackScreenshotPath(const QString& openedPath)
{
    const QString cwd = QDir::currentPath();
    const QString opened = openedPath.isEmpty() ? QString() : QFileInfo(openedPath).absoluteFilePath();
    const bool insideRun = !opened.isEmpty() && (cwd == opened || cwd.startsWith(opened + QLatin1Char('/')));
    return QDir(insideRun ? QDir::tempPath() : cwd).filePath(QStringLiteral("runlens-screenshot.png"));
}

} // namespace

int main(int argc, char** argv)
{
    const QString language = ::languageFromArguments(argc, argv);
    QStringList rawArguments;
    for (int i = 0; i < argc; ++i)
        rawArguments << QString::fromLocal8Bit(argv[i]);

    if (runlens::app::cli::isSubcommand(rawArguments)) {
        std::unique_ptr<QCoreApplication> app;
        if (runlens::app::cli::subcommandNeedsGui(rawArguments)) {
            if (!::hasDisplay())
                qputenv("QT_QPA_PLATFORM", "offscreen");
            if (qgetenv("QT_QPA_PLATFORM") == "offscreen")
                g_defaultHandler = qInstallMessageHandler(::quietOffscreenMessages);
            app = std::make_unique<QApplication>(argc, argv);
        } else {
            app = std::make_unique<QCoreApplication>(argc, argv);
        }
        ::setIdentity();
        ::installTranslators(*app, language);
        // The command line shares the desktop's trace cache (under XDG_CACHE_HOME) and its size limit.
        runlens::app::AppSettings::load().applyTraceCache();
        return runlens::app::cli::runSubcommand(app->arguments());
    }

    const bool display = ::hasDisplay();
    if (!display)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qgetenv("QT_QPA_PLATFORM") == "offscreen")
        g_defaultHandler = qInstallMessageHandler(::quietOffscreenMessages);
    QApplication app(argc, argv);
    // Links the window to its desktop entry (Wayland docks and task switchers).
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.runlens.RunLens"));
    ::setIdentity();
    // --lang wins over the language chosen in the preferences, which wins over the system's.
    const runlens::app::AppSettings preferences = runlens::app::AppSettings::load();
    ::installTranslators(app, language.isEmpty() ? preferences.language : language);
    preferences.apply();

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "runlens::main",
        "RunLens: a desktop workbench for debugging and tuning deep-learning training runs.\n\n"
        "Subcommands (run 'runlens COMMAND --help' for their options):\n"
        "  scan PATH [--json]       what a run folder holds\n"
        "  info PATH [--json]       what each artifact imported to\n"
        "  advise PATH [--json] [--rules FILE] [--fail-on warning|error]\n"
        "                           expert-rule findings with their evidence (exit 1 at --fail-on)\n"
        "  compare BENCH TARGET [--json|--csv|--md] [--mapping FILE] [--fail-on warning|error]\n"
        "                           two runs' dumps matched op by op, and the op where they part\n"
        "  record [--interval 1s] [--out OUT] [--rank N] -- COMMAND [ARGS...]\n"
        "                           run COMMAND and record the machine under it (CPU, memory, GPU...)\n"
        "  export PATH --chart scalars:TAG --out FILE.{png,svg,pdf,csv}\n"
        "  export PATH --chart graph:NAME --out FILE.{svg,png}\n"
        "  digest PATH --out DIR [--ranks A-B]\n"
        "                           one rank digest per rank of a job (open DIR as its cluster)\n"
        "  demo DIR                 write the demo run folder"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(
        { QStringLiteral("screenshot"),
          QCoreApplication::translate("runlens::main", "Load PATH, render the main window offscreen to FILE and exit."),
          QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("dock"),
                       QCoreApplication::translate("runlens::main",
                                                   "With --screenshot: bring the panel NAME to the front (its title, "
                                                   "e.g. Tensors, Graph, Timeline)."),
                       QStringLiteral("NAME") });
    parser.addOption({ QStringLiteral("compare"),
                       QCoreApplication::translate("runlens::main",
                                                   "Open the dump BENCH and compare it with the dump PATH in the "
                                                   "Accuracy panel."),
                       QStringLiteral("BENCH") });
    parser.addOption({ QStringLiteral("lang"),
                       QCoreApplication::translate("runlens::main", "Language of the interface: en or zh_CN."),
                       QStringLiteral("LANG") });
    parser.addOption({ QStringLiteral("new-window"),
                       QCoreApplication::translate("runlens::main",
                                                   "Open PATH in a new window; by default it opens in the RunLens "
                                                   "window already running.") });
    parser.addOption({ QStringLiteral("list-docks"),
                       QCoreApplication::translate("runlens::main",
                                                   "Print the panel names --dock accepts, one per line, and exit.") });
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 QCoreApplication::translate("runlens::main", "Run folder or file to open."));
    parser.process(app);

    QString path = parser.positionalArguments().value(0);
    // --compare BENCH TARGET: the window opens the bench (its graph, stacks, tensors) and compares the two.
    const QString compareBench = parser.value(QStringLiteral("compare"));
    const QString compareTarget = compareBench.isEmpty() ? QString() : path;
    if (!compareBench.isEmpty()) {
        if (compareTarget.isEmpty()) {
            QTextStream(stderr) << QCoreApplication::translate("runlens::main",
                                                               "--compare needs a target dump: "
                                                               "runlens --compare BENCH TARGET")
                                << Qt::endl;
            return 2;
        }
        path = compareBench;
    }
    if (parser.isSet(QStringLiteral("list-docks"))) {
        const runlens::app::MainWindow window;
        QTextStream out(stdout);
        for (const QString& name : window.panelNames())
            out << name << Qt::endl;
        return 0;
    }
    QString screenshot = parser.value(QStringLiteral("screenshot"));
    if (!display && screenshot.isEmpty()) {
        screenshot = ::fallbackScreenshotPath(path);
        QTextStream(stderr) << QCoreApplication::translate("runlens::main",
                                                           "No display found: writing a screenshot to %1 instead of "
                                                           "opening a window.")
                                   .arg(screenshot)
                            << Qt::endl;
    }

    // Without a window nobody could dismiss the "does not exist" message box: say it here and stop.
    if (!screenshot.isEmpty() && !path.isEmpty() && !QFileInfo::exists(path)) {
        QTextStream(stderr) << QCoreApplication::translate("runlens::main", "%1 does not exist.").arg(path) << Qt::endl;
        return 2;
    }

    // One window per user: a folder opened from the file manager lands in the window already open.
    std::unique_ptr<runlens::app::SingleInstance> instance;
    if (screenshot.isEmpty() && !parser.isSet(QStringLiteral("new-window")) && compareBench.isEmpty()) {
        instance = std::make_unique<runlens::app::SingleInstance>();
        if (!path.isEmpty() && instance->sendToRunning({ QFileInfo(path).absoluteFilePath() }))
            return 0;
        instance->listen();
    }

    runlens::app::MainWindow window;
    if (!screenshot.isEmpty()) {
        window.resize(1440, 900);
        window.show();
        if (!path.isEmpty())
            window.openPath(path);
        const QString dock = parser.value(QStringLiteral("dock"));
        auto take
            = [&window, screenshot, dock, compareBench, compareTarget]() {
                  if (!compareBench.isEmpty() && !window.accuracyPanel()->result()
                      && window.accuracyPanel()->errorText().isEmpty()) {
                      // Taken once the comparison is over, so the picture shows its rows.
                      QObject::connect(window.accuracyPanel(),
                                       &runlens::widgets::accuracy::AccuracyPanel::comparisonFinished, &window,
                                       [&window, screenshot, dock]() {
                                           if (!dock.isEmpty())
                                               window.raisePanel(dock);
                                           // The Advisor evaluates its comparison rules next: the picture shows them
                                           // too.
                                           window.whenIdle([&window, screenshot]() {
                                               QTimer::singleShot(400, &window, [&window, screenshot]() {
                                                   const bool ok = window.grab().save(screenshot);
                                                   QTextStream(ok ? stdout : stderr)
                                                       << (ok ? QCoreApplication::translate("runlens::main",
                                                                                            "Screenshot written to %1")
                                                              : QCoreApplication::translate(
                                                                  "runlens::main", "Cannot write the screenshot %1"))
                                                              .arg(screenshot)
                                                       << Qt::endl;
                                                   QCoreApplication::exit(ok ? 0 : 1);
                                               });
                                           });
                                       });
                      window.compareDumps(compareBench, compareTarget);
                      return;
                  }
                  if (!dock.isEmpty() && !window.raisePanel(dock))
                      QTextStream(stderr)
                          << QCoreApplication::translate("runlens::main", "There is no panel named %1.").arg(dock)
                          << Qt::endl;
                  // The Cluster panel analyses on its workers after the import: wait for it (at most a minute),
                  // then let queued chart updates and the layout settle before grabbing.
                  // Rank digests arrive in bursts, each starting an analysis: the panel must stay idle for a
                  // second before the picture is taken.
                  auto settled = std::make_shared<std::function<void(int, int)>>();
                  *settled = [&window, screenshot, settled](int waitedMs, int idleMs) {
                      const runlens::widgets::cluster::ClusterPanel* cluster = window.clusterPanel();
                      const bool busy = cluster && (cluster->isComputing() || cluster->heatmap()->isBuilding());
                      if (waitedMs < 60000 && (busy || idleMs < 1000)) {
                          QTimer::singleShot(50, &window, [settled, waitedMs, busy, idleMs]() {
                              (*settled)(waitedMs + 50, busy ? 0 : idleMs + 50);
                          });
                          return;
                      }
                      QTimer::singleShot(400, &window, [&window, screenshot]() {
                          const QPixmap pixmap = window.grab();
                          const bool ok = pixmap.save(screenshot);
                          QTextStream(ok ? stdout : stderr)
                              << (ok ? QCoreApplication::translate("runlens::main", "Screenshot written to %1")
                                     : QCoreApplication::translate("runlens::main", "Cannot write the screenshot %1"))
                                     .arg(screenshot)
                              << Qt::endl;
                          QCoreApplication::exit(ok ? 0 : 1);
                      });
                  };
                  (*settled)(0, 0);
              };
        window.whenIdle(take);
        return app.exec();
    }

    window.show();
    if (instance)
        QObject::connect(instance.get(), &runlens::app::SingleInstance::pathsReceived, &window,
                         &runlens::app::MainWindow::openForwardedPaths);
    if (!path.isEmpty())
        window.openPath(path);
    if (!compareBench.isEmpty())
        window.compareDumps(compareBench, compareTarget);
    else if (path.isEmpty() && preferences.restoreSession)
        window.reopenLastSession();
    return app.exec();
}
