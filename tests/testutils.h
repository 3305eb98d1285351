#pragma once

#include <QDir>
#include <QString>
#include <QtTest>

namespace runlens::test {

/// Root of the real sample files, or an empty string when `../shared/samples` is not there.
inline QString samplesDir()
{
    const QString dir = QStringLiteral(RUNLENS_SAMPLES_DIR);
    return QDir(dir).exists() ? QDir(dir).absolutePath() : QString();
}

} // namespace runlens::test

/// Skips the current test with a message when the sample corpus is absent; yields the samples root.
#define RUNLENS_REQUIRE_SAMPLES(var)                                                                                   \
    const QString var = runlens::test::samplesDir();                                                                  \
    if (var.isEmpty())                                                                                                 \
        QSKIP("../shared/samples is not present next to the checkout; conformance test not run");
