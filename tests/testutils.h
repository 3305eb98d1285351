#pragma once

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QtTest>

namespace runlens::test {

/// Root of the real sample files, or an empty string when `../shared/samples` is not there.
inline QString samplesDir()
{
    const QString dir = QStringLiteral(RUNLENS_SAMPLES_DIR);
    return QDir(dir).exists() ? QDir(dir).absolutePath() : QString();
}

/// True when whatever a test needs must be there: CI sets RUNLENS_REQUIRE_SAMPLES=1, and a checkout with the
/// samples beside it has no reason to miss one of them. A missing sample, manifest, python or python module is
/// then a failure, so the suite cannot pass by skipping what it was meant to check.
inline bool samplesRequired()
{
    return qEnvironmentVariableIntValue("RUNLENS_REQUIRE_SAMPLES") == 1 || !samplesDir().isEmpty();
}

/// Why a test cannot run its conformance check, phrased for the log.
inline QString missingSamplesMessage()
{
    return QStringLiteral("RUNLENS_REQUIRE_SAMPLES=1 but the sample folder %1 is absent")
        .arg(QDir(QStringLiteral(RUNLENS_SAMPLES_DIR)).absolutePath());
}

} // namespace runlens::test

/// Yields the samples root in `var`. When the corpus is absent the test skips, unless RUNLENS_REQUIRE_SAMPLES=1
/// (CI), where it fails naming the folder.
#define RUNLENS_REQUIRE_SAMPLES(var)                                                                                   \
    const QString var = runlens::test::samplesDir();                                                                   \
    if (var.isEmpty()) {                                                                                               \
        if (qEnvironmentVariableIntValue("RUNLENS_REQUIRE_SAMPLES") == 1)                                              \
            QFAIL(qPrintable(runlens::test::missingSamplesMessage()));                                                 \
        QSKIP("../shared/samples is not present next to the checkout; conformance test not run");                      \
    }

/// A sample file (or folder) the test reads: when it is missing while the samples are required it is a failure
/// naming the path, otherwise a skip naming it.
#define RUNLENS_REQUIRE_SAMPLE_FILE(path)                                                                              \
    do {                                                                                                               \
        const QString runlensRequiredPath_ = (path);                                                                   \
        if (!QFileInfo::exists(runlensRequiredPath_)) {                                                                \
            const QString runlensMessage_ = QStringLiteral("sample missing: %1").arg(runlensRequiredPath_);            \
            if (runlens::test::samplesRequired())                                                                      \
                QFAIL(qPrintable(runlensMessage_));                                                                    \
            QSKIP(qPrintable(runlensMessage_));                                                                        \
        }                                                                                                              \
    } while (false)
