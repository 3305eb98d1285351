#pragma once

#include "tests/testutils.h"

#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QtTest>

namespace runlens::test {

/// The interpreter every Python oracle runs with. Debian's /usr/bin/python3 comes first because numpy, torch
/// and onnx are installed for it by apt (packaging/install-deps.sh); the first python3 on PATH may be another
/// interpreter (pyenv, a venv) without them. Empty when there is no python3 at all.
inline QString pythonInterpreter()
{
    const QString debian = QStringLiteral("/usr/bin/python3");
    if (QFileInfo(debian).isExecutable())
        return debian;
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

/// What one run of an oracle gave: its standard output, or why there is none.
struct PythonRun
{
    enum class Status {
        Ok,
        Unavailable, ///< no python3, or a third-party module the oracle imports is not installed
        Failed, ///< the oracle ran and failed: a test failure
    };
    Status status = Status::Failed;
    QString output;
    QString message;

    bool ok() const { return status == Status::Ok; }
};

/// Third-party modules the oracles import; a missing one makes the oracle unavailable rather than broken. Any
/// other missing module is a mistake in the oracle and fails the test.
inline bool isOptionalPythonModule(const QString& module)
{
    static const QStringList kOptional { QStringLiteral("numpy"),  QStringLiteral("torch"),
                                         QStringLiteral("onnx"),   QStringLiteral("google"),
                                         QStringLiteral("crc32c"), QStringLiteral("safetensors") };
    return kOptional.contains(module.section(QLatin1Char('.'), 0, 0));
}

/// Runs python with `arguments` (a script path or `-c` code, then its arguments), killing it after
/// `timeoutSeconds`. Unavailable becomes Failed when RUNLENS_REQUIRE_SAMPLES=1, so CI notices an oracle that
/// cannot run.
inline PythonRun runPython(const QStringList& arguments, int timeoutSeconds = 300)
{
    PythonRun run;
    const bool required = qEnvironmentVariableIntValue("RUNLENS_REQUIRE_SAMPLES") == 1;
    const QString what = arguments.value(0) == QLatin1String("-c")
        ? QStringLiteral("python -c %1").arg(arguments.value(1).section(QLatin1Char('\n'), 0, 0).left(80))
        : QStringLiteral("python %1").arg(arguments.value(0));
    auto unavailable = [&](const QString& why) {
        run.status = required ? PythonRun::Status::Failed : PythonRun::Status::Unavailable;
        run.message = QStringLiteral("%1: %2%3")
                          .arg(what, why,
                               required ? QStringLiteral(" (a failure: RUNLENS_REQUIRE_SAMPLES=1 asks for every "
                                                         "oracle; packaging/install-deps.sh installs them)")
                                        : QString());
        return run;
    };

    const QString python = pythonInterpreter();
    if (python.isEmpty())
        return unavailable(QStringLiteral("python3 is not installed"));

    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // The oracles live in tests/data: no __pycache__ written into the source tree.
    environment.insert(QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1"));
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(python, arguments);
    if (!process.waitForStarted(30000))
        return unavailable(QStringLiteral("%1 did not start: %2").arg(python, process.errorString()));
    if (!process.waitForFinished(timeoutSeconds * 1000)) {
        process.kill();
        process.waitForFinished(5000);
        run.message = QStringLiteral("%1 (%2) did not finish within %3 s; its stderr:\n%4")
                          .arg(what, python)
                          .arg(timeoutSeconds)
                          .arg(QString::fromUtf8(process.readAllStandardError()).right(4000));
        return run;
    }
    const QString error = QString::fromUtf8(process.readAllStandardError());
    run.output = QString::fromUtf8(process.readAllStandardOutput());
    if (process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0) {
        run.status = PythonRun::Status::Ok;
        if (run.output.isNull())
            run.output = QStringLiteral("");
        return run;
    }
    static const QRegularExpression kMissingModule(QStringLiteral("ModuleNotFoundError: No module named '([^']+)'"));
    const QRegularExpressionMatch missing = kMissingModule.match(error);
    if (missing.hasMatch() && isOptionalPythonModule(missing.captured(1)))
        return unavailable(QStringLiteral("%1 has no module %2").arg(python, missing.captured(1)));
    run.message
        = QStringLiteral("%1 (%2) failed: %3; its stderr:\n%4")
              .arg(what, python,
                   process.exitStatus() == QProcess::NormalExit ? QStringLiteral("exit code %1").arg(process.exitCode())
                                                                : QStringLiteral("crashed"),
                   error.right(4000));
    run.output.clear();
    return run;
}

/// Runs a script of tests/data (`relativeScript`, e.g. "tensor/npy_oracle.py") with `arguments`.
inline PythonRun runPythonScript(const QString& relativeScript, const QStringList& arguments = {},
                                 int timeoutSeconds = 300)
{
    return runPython(QStringList { QStringLiteral(RUNLENS_TEST_DATA_DIR "/") + relativeScript } + arguments,
                     timeoutSeconds);
}

} // namespace runlens::test

/// Skips the test when `run` could not run (no python or module, outside CI), fails it with the oracle's stderr
/// when it failed. Only in a function returning void (a test slot).
#define RUNLENS_VERIFY_PYTHON(run)                                                                                     \
    do {                                                                                                               \
        if ((run).status == runlens::test::PythonRun::Status::Unavailable)                                             \
            QSKIP(qPrintable((run).message));                                                                          \
        if ((run).status == runlens::test::PythonRun::Status::Failed)                                                  \
            QFAIL(qPrintable((run).message));                                                                          \
    } while (false)

/// Declares `var` holding the standard output of runPython(...), or skips/fails the test as RUNLENS_VERIFY_PYTHON.
#define RUNLENS_PYTHON_ORACLE(var, ...)                                                                                \
    QString var;                                                                                                       \
    do {                                                                                                               \
        const runlens::test::PythonRun runlensRun_ = runlens::test::runPython(__VA_ARGS__);                            \
        RUNLENS_VERIFY_PYTHON(runlensRun_);                                                                            \
        var = runlensRun_.output;                                                                                      \
    } while (false)
