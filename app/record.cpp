#include "app/commandline.h"

#include "importers/summary/eventfilewriter.h"
#include "importers/system/systemsampler.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHostInfo>
#include <QRegularExpression>
#include <QTextStream>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <ctime>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

// `runlens record`: runs a training command and samples the machine under it into a TensorBoard event file.

namespace runlens::app::cli {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::cli)
};

/// "1s", "500ms", "0.5", "2m" as seconds; nullopt when not a duration.
std::optional<double> parseDuration(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*([0-9]*\.?[0-9]+)\s*(ms|s|m)?\s*$)"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    double value = match.captured(1).toDouble();
    const QString unit = match.captured(2);
    if (unit == QLatin1String("ms"))
        value /= 1000.0;
    else if (unit == QLatin1String("m"))
        value *= 60.0;
    return value;
}

/// Signals the recorder takes from sigtimedwait() instead of dying of them: they are passed to the child.
sigset_t handledSignals()
{
    sigset_t set;
    sigemptyset(&set);
    for (int signal : { SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 })
        sigaddset(&set, signal);
    return set;
}

double monotonicSeconds()
{
    timespec now {};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

/// The child's exit status as a shell reports it: its code, or 128 + the signal that ended it.
int exitCodeOf(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

} // namespace

int record(const QStringList& args)
{
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(Text::tr(
        "Runs COMMAND and samples the machine under it until it exits: CPU, the command's processes, memory,\n"
        "disk, network, InfiniBand, NUMA and (with NVIDIA's driver) GPUs. The samples are scalars\n"
        "system/<metric>_<unit> in a TensorBoard event file under OUT/system/ (OUT defaults to\n"
        "./runlens-system/<host>); RunLens and TensorBoard read it. Standard input and output, the environment\n"
        "and signals reach COMMAND; Ctrl+C stops both. The exit code is COMMAND's."));
    const QCommandLineOption help = parser.addHelpOption();
    parser.addOption({ QStringLiteral("interval"), Text::tr("Time between samples: 1s (default), 500ms, 2s…"),
                       QStringLiteral("DURATION"), QStringLiteral("1s") });
    parser.addOption({ QStringLiteral("out"), Text::tr("Folder to write OUT/system/ into."), QStringLiteral("OUT") });
    parser.addOption({ QStringLiteral("rank"),
                       Text::tr("Rank of this process in a distributed job: the samples go "
                                "to OUT/system/rank_N/."),
                       QStringLiteral("N") });
    parser.addPositionalArgument(QStringLiteral("COMMAND"), Text::tr("The command to run, after --."),
                                 QStringLiteral("-- COMMAND [ARGS…]"));
    if (!parser.parse(args)) {
        err << QStringLiteral("runlens record: ") << parser.errorText() << Qt::endl;
        return 2;
    }
    if (parser.isSet(help))
        parser.showHelp(0);
    const QStringList command = parser.positionalArguments();
    if (command.isEmpty()) {
        err << Text::tr("runlens record: no command to run; usage: runlens record [--interval 1s] [--out OUT] "
                        "-- COMMAND [ARGS…]")
            << Qt::endl;
        return 2;
    }
    const std::optional<double> interval = parseDuration(parser.value(QStringLiteral("interval")));
    if (!interval || *interval < 0.05 || *interval > 3600) {
        err << Text::tr("runlens record: --interval takes a duration from 50ms to 1h, not '%1'")
                   .arg(parser.value(QStringLiteral("interval")))
            << Qt::endl;
        return 2;
    }
    std::optional<int> rank;
    if (parser.isSet(QStringLiteral("rank"))) {
        bool ok = false;
        rank = parser.value(QStringLiteral("rank")).toInt(&ok);
        if (!ok || *rank < 0) {
            err << Text::tr("runlens record: --rank takes a number from 0, not '%1'")
                       .arg(parser.value(QStringLiteral("rank")))
                << Qt::endl;
            return 2;
        }
    }

    const QString host = QHostInfo::localHostName();
    const QString out = parser.isSet(QStringLiteral("out"))
        ? parser.value(QStringLiteral("out"))
        : QDir::current().filePath(QStringLiteral("runlens-system/")
                                   + (host.isEmpty() ? QStringLiteral("host") : host));
    QString folder = QDir(out).filePath(QStringLiteral("system"));
    if (rank)
        folder = QDir(folder).filePath(QStringLiteral("rank_%1").arg(*rank));
    if (!QDir().mkpath(folder)) {
        err << Text::tr("runlens record: cannot create the folder %1").arg(QDir::toNativeSeparators(folder))
            << Qt::endl;
        return 2;
    }
    importers::summary::EventFileWriter writer;
    const QString file = QDir(folder).filePath(importers::summary::EventFileWriter::tensorBoardFileName());
    if (!writer.open(file) || !writer.writeFileVersion() || !writer.flush()) {
        err << Text::tr("runlens record: cannot write %1: %2").arg(QDir::toNativeSeparators(file), writer.errorString())
            << Qt::endl;
        return 2;
    }

    // The arguments for execvp, kept alive until it runs.
    std::vector<QByteArray> encoded;
    for (const QString& word : command)
        encoded.push_back(QFile::encodeName(word));
    std::vector<char*> argv;
    for (QByteArray& word : encoded)
        argv.push_back(word.data());
    argv.push_back(nullptr);

    // Signals are taken synchronously from here on; the child gets the mask and handlers it would have had.
    const sigset_t handled = handledSignals();
    sigset_t previousMask;
    sigprocmask(SIG_BLOCK, &handled, &previousMask);
    const pid_t child = fork();
    if (child < 0) {
        const int error = errno;
        sigprocmask(SIG_SETMASK, &previousMask, nullptr);
        err << Text::tr("runlens record: cannot start %1: %2")
                   .arg(command.first(), QString::fromLocal8Bit(strerror(error)))
            << Qt::endl;
        return 2;
    }
    if (child == 0) {
        sigprocmask(SIG_SETMASK, &previousMask, nullptr);
        execvp(argv[0], argv.data());
        const int error = errno;
        const QByteArray message = "runlens record: cannot run " + encoded.front() + ": " + strerror(error) + '\n';
        [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message.constData(), size_t(message.size()));
        _exit(error == ENOENT ? 127 : 126);
    }

    importers::system::SystemSampler sampler;
    sampler.setProcess(child);
    qsizetype notesPrinted = 0;
    const auto printNotes = [&] {
        const QStringList notes = sampler.notes();
        for (; notesPrinted < notes.size(); ++notesPrinted)
            err << QStringLiteral("runlens record: ") << notes[notesPrinted] << Qt::endl;
    };
    printNotes();
    qint64 step = 0;
    int metrics = 0;
    bool writeFailed = false;
    const auto takeSample = [&] {
        const std::vector<importers::system::Metric> sample = sampler.sample(monotonicSeconds());
        printNotes();
        std::vector<importers::summary::EventFileWriter::NamedValue> values;
        values.reserve(sample.size());
        for (const importers::system::Metric& metric : sample) {
            if (std::isfinite(metric.value))
                values.push_back({ metric.tag, metric.value });
        }
        metrics = std::max(metrics, int(values.size()));
        if (!writeFailed
            && (!writer.writeScalars(step, importers::summary::EventFileWriter::currentWallTime(), values)
                || !writer.flush())) {
            writeFailed = true;
            err << Text::tr("runlens record: cannot write %1: %2; the command goes on without recording")
                       .arg(QDir::toNativeSeparators(file), writer.errorString())
                << Qt::endl;
        }
        ++step;
    };

    takeSample();
    const double start = monotonicSeconds();
    int status = 0;
    for (;;) {
        const double next = start + double(step) * *interval;
        const double untilSample = next - monotonicSeconds();
        if (untilSample <= 0) {
            takeSample();
            continue;
        }
        // Woken at least every 200 ms to look at the child, in case its SIGCHLD went to another thread.
        const double wait = std::min(untilSample, 0.2);
        timespec timeout {};
        timeout.tv_sec = time_t(wait);
        timeout.tv_nsec = long((wait - double(timeout.tv_sec)) * 1e9);
        siginfo_t info {};
        const int signal = sigtimedwait(&handled, &info, &timeout);
        if (waitpid(child, &status, WNOHANG) == child && (WIFEXITED(status) || WIFSIGNALED(status)))
            break;
        if (signal < 0 || signal == SIGCHLD)
            continue;
        // Ctrl+C in the terminal reaches the whole process group, the child included: passing it on would
        // deliver it twice. A signal sent to the recorder alone (kill, a scheduler) is passed on.
        const bool fromTerminal = signal == SIGINT && info.si_code == SI_KERNEL;
        if (!fromTerminal)
            kill(child, signal);
    }
    takeSample();
    writer.close();
    sigprocmask(SIG_SETMASK, &previousMask, nullptr);
    err << Text::tr("runlens record: %1 samples of %2 metrics in %3")
               .arg(step)
               .arg(metrics)
               .arg(QDir::toNativeSeparators(file))
        << Qt::endl;
    return exitCodeOf(status);
}

} // namespace runlens::app::cli
