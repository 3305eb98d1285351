#include "tests/testutils.h"
#include "tests/trust/isolatedbatch.h"
#include "tests/trust/mutators.h"
#include "tests/trust/seedrows.h"

#include "importers/core/artifactimporter.h"
#include "importers/core/filesniffer.h"
#include "importers/core/profilerimporter.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include <functional>
#include <memory>
#include <new>
#include <optional>

// Every importer, fed damaged copies of small real files through the import boundary (createImporter()->poll(),
// or the run's ProfilerImporter for MindSpore profiler tables): cut at many offsets, bits flipped, bytes
// overwritten and, for each format, the lengths and counts its reader trusts inflated with checksums made to
// match. Each batch runs in a child process with an address-space limit and an alarm, so a crash, a hang or an
// allocation of gigabytes is a failure naming the seed, the mutation and the offset instead of the end of the
// test run. What must hold: the importer returns, and a status other than Ok comes with a diagnostic naming the
// file, every diagnostic offset inside the file.

using namespace runlens;
using namespace runlens::test;
using namespace runlens::importers;
using namespace runlens::models;

namespace {

/// Rows × families that fail today, each with the defect that makes it fail. A fix that makes one pass turns
/// it into an unexpected pass (a failure): remove its line then.
const QMap<QString, QString>& expectedFailures()
{
    // "row/family" -> the defect, for damage an importer does not survive yet. Empty: every row passes.
    static const QMap<QString, QString> failures;
    return failures;
}

// ---------------------------------------------------------------------------------------------------------------

/// Reads `bytes` as the row's file through the import boundary and says what is wrong, or nothing. Runs in
/// the child.
QString importCase(const SeedRow& row, const QString& folder, const QByteArray& bytes, bool pristine)
{
    if (row.read)
        return row.read(folder, bytes);
    const QString directory = row.profilerFolder ? folder + QStringLiteral("/profiler") : folder;
    QDir().mkpath(directory);
    const QString path = directory + QLatin1Char('/') + QLatin1String(row.fileName);
    // A new file each time rather than rewriting the old one in place: nothing may still map the old one.
    QFile::remove(path);
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return QStringLiteral("cannot write %1").arg(path);
    }
    Artifact artifact;
    artifact.path = path;
    artifact.relativePath = QFileInfo(path).fileName();
    artifact.kind = row.kind;
    artifact.run = QStringLiteral(".");
    artifact.size = bytes.size();
    artifact.modified = QFileInfo(path).lastModified();

    std::unique_ptr<ArtifactImporter> importer;
    if (row.profilerFolder) {
        auto profiler = std::make_unique<ProfilerImporter>(folder);
        profiler->addPath(path);
        importer = std::move(profiler);
    } else {
        importer = createImporter(artifact, {});
    }
    if (!importer)
        return QStringLiteral("no importer for %1").arg(artifactKindId(row.kind));

    QStringList problems;
    const std::atomic_bool cancel { false };
    ImportControl control;
    control.cancel = &cancel;
    // Diagnostics add up over a file's polls (the import session keeps them all), so a later poll of a file
    // already reported as damaged need not repeat the message.
    bool named = false;
    for (int pollCount = 0; pollCount < 2; ++pollCount) {
        ImportUpdate update;
        try {
            update = importer->poll(control);
        } catch (const std::bad_alloc&) {
            return QStringLiteral("std::bad_alloc escaped poll()");
        } catch (const std::exception& e) {
            return QStringLiteral("exception escaped poll(): %1").arg(QString::fromLocal8Bit(e.what()));
        }
        for (const Diagnostic& d : std::as_const(update.diagnostics)) {
            named = named || d.file == path || d.message.contains(path);
            if (d.offset > bytes.size())
                problems << QStringLiteral("diagnostic offset %1 beyond the file's %2 bytes: %3")
                                .arg(d.offset)
                                .arg(bytes.size())
                                .arg(d.toString());
        }
        if (pristine && (update.status == ImportStatus::Failed || update.status == ImportStatus::Unsupported))
            problems << QStringLiteral("the undamaged seed does not import (%1): %2")
                            .arg(importStatusId(update.status), update.diagnostics.value(0).toString());
        if (update.status != ImportStatus::Ok && !named)
            problems << QStringLiteral("status %1 without a diagnostic naming the file%2")
                            .arg(importStatusId(update.status),
                                 update.diagnostics.isEmpty()
                                     ? QString()
                                     : QStringLiteral(" (first: %1)").arg(update.diagnostics.first().toString()));
        if (!update.mayGrow || !problems.isEmpty())
            break;
    }
    return problems.join(QStringLiteral("; "));
}

QString describe(const BatchResult& result, const Mutations& cases, const QString& row, const QString& family)
{
    QStringList lines;
    constexpr int kListed = 6;
    for (const CaseFailure& failure : result.failures.mid(0, kListed)) {
        const QString name = failure.index >= 0 && failure.index < cases.size() ? cases[failure.index].name
                                                                                : QStringLiteral("(before any case)");
        QString line = QStringLiteral("  [%1 / %2] %3: %4").arg(row, family, name, failure.what);
        if (!failure.stack.isEmpty())
            line += QStringLiteral("\n      at ") + failure.stack.join(QStringLiteral("\n      at "));
        lines << line;
    }
    if (result.failures.size() > kListed)
        lines << QStringLiteral("  [%1 / %2] and %3 more").arg(row, family).arg(result.failures.size() - kListed);
    if (result.notRun > 0)
        lines << QStringLiteral("  [%1 / %2] %3 cases not run after that").arg(row, family).arg(result.notRun);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestCorruptInput : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void corruptInput_data();
    void corruptInput();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_samples;
};

void TestCorruptInput::initTestCase()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_samples = samplesDir();
}

void TestCorruptInput::corruptInput_data()
{
    QTest::addColumn<int>("row");
    const std::vector<SeedRow> rows = seedRows();
    for (size_t i = 0; i < rows.size(); ++i)
        QTest::newRow(rows[i].name) << int(i);
}

void TestCorruptInput::corruptInput()
{
    QFETCH(int, row);
    const std::vector<SeedRow> rows = seedRows();
    const SeedRow& seedRow = rows[size_t(row)];
    const QString rowName = QLatin1String(seedRow.name);

    QByteArray seed;
    switch (seedRow.source) {
    case Source::Inline:
        seed = QByteArray(seedRow.path);
        break;
    case Source::Samples:
    case Source::TestData: {
        QString root = QStringLiteral(RUNLENS_TEST_DATA_DIR);
        if (seedRow.source == Source::Samples) {
            if (m_samples.isEmpty()) {
                if (qEnvironmentVariableIntValue("RUNLENS_REQUIRE_SAMPLES"))
                    QFAIL("RUNLENS_REQUIRE_SAMPLES is set but ../shared/samples is not present");
                QSKIP("../shared/samples is not present next to the checkout; this seed comes from there");
            }
            root = m_samples;
        }
        QFile file(root + QLatin1Char('/') + QLatin1String(seedRow.path));
        // With the corpus present a missing seed is a failure: a format would silently go untested.
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(QStringLiteral("seed missing: %1").arg(file.fileName())));
        seed = file.readAll();
        break;
    }
    }
    if (seedRow.cut)
        seed = seedRow.cut(seed);
    QVERIFY2(!seed.isEmpty(), "the seed is empty after cutting");
    QVERIFY2(seed.size() <= 64 * 1024,
             qPrintable(QStringLiteral("seed of %1 bytes: keep seeds small").arg(seed.size())));

    // The seed is what it claims to be: the sniffer classifies it as the row's kind (files the program writes
    // for itself are read by their own reader, never sniffed).
    const SniffResult sniffed = FileSniffer::sniff(
        seedRow.fileName, seedRow.profilerFolder ? "profiler" : "",
        std::string_view(seed.constData(), size_t(std::min<qsizetype>(seed.size(), FileSniffer::kHeadSize))),
        seed.size());
    if (!seedRow.read)
        QCOMPARE(artifactKindId(sniffed.kind), artifactKindId(seedRow.kind));

    const std::uint64_t rowSeed = stableHash(seedRow.name);
    struct Family
    {
        QString name;
        Mutations cases;
        bool pristine = false;
    };
    QList<Family> families;
    families.append({ QStringLiteral("seed"), { { QStringLiteral("undamaged"), [seed] { return seed; } } }, true });
    families.append({ QStringLiteral("truncate"), truncations(seed) });
    families.append({ QStringLiteral("bitflip"), bitFlips(seed, rowSeed, 96) });
    families.append({ QStringLiteral("stomp"), byteStomps(seed, rowSeed, 96) });
    families.append({ QStringLiteral("hostile"), seedRow.hostile ? seedRow.hostile(seed, rowSeed) : Mutations() });

    const QString folder = m_dir->filePath(QString::number(row));
    QVERIFY(QDir().mkpath(folder));
    const ChildLimits limits = defaultChildLimits();
    QStringList summary;
    QElapsedTimer clock;
    clock.start();
    QStringList unexpected;
    QList<QPair<QString, QString>> expectedFailed; // (reason, report)
    QStringList expectedPassed;
    for (const Family& family : std::as_const(families)) {
        if (family.name == QLatin1String("hostile"))
            QVERIFY2(!family.cases.isEmpty(), "no format-aware mutation could be made from this seed");
        const BatchResult result = runIsolated(
            int(family.cases.size()),
            [&](int index) {
                // A hostile case can be large (100,000 copies of a node with its subgraph): it gets a second
                // more per 4 MiB, so only a reader slower than that on a loaded machine counts as hung.
                const QByteArray bytes = family.cases[index].make();
                alarm(limits.seconds + unsigned(bytes.size() >> 22));
                return ::importCase(seedRow, folder, bytes, family.pristine);
            },
            limits);
        summary << QStringLiteral("%1 %2 (%3 ms)").arg(family.cases.size()).arg(family.name).arg(clock.restart());
        const bool failed = !result.failures.isEmpty() || result.notRun > 0;
        const QString report = failed ? QStringLiteral("%1 of %2 %3 cases failed:\n%4")
                                            .arg(result.failures.size())
                                            .arg(family.cases.size())
                                            .arg(family.name, describe(result, family.cases, rowName, family.name))
                                      : QString();
        const auto expected = expectedFailures().constFind(rowName + QLatin1Char('/') + family.name);
        if (expected == expectedFailures().constEnd()) {
            if (failed) {
                // In full here: QVERIFY2 cuts long messages.
                qWarning("%s", qPrintable(report));
                unexpected << report.left(report.indexOf(QLatin1Char('\n')));
            }
        } else if (failed) {
            expectedFailed.append({ expected.value(), report });
        } else {
            expectedPassed << family.name;
        }
    }
    // Every family is run before anything is reported, so one run lists all that fails.
    for (const auto& [reason, report] : std::as_const(expectedFailed)) {
        qInfo("expected failure (%s):\n%s", qPrintable(reason), qPrintable(report));
        QEXPECT_FAIL("", qPrintable(reason), Continue);
        QVERIFY2(false, qPrintable(report));
    }
    QVERIFY2(expectedPassed.isEmpty(),
             qPrintable(QStringLiteral("now passing, remove from expectedFailures(): %1")
                            .arg(expectedPassed.join(QStringLiteral(", ")))));
    QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.join(QStringLiteral("; "))));
    qInfo("%s: %lld-byte seed, %s", seedRow.name, qlonglong(seed.size()),
          qPrintable(summary.join(QStringLiteral(", "))));
}

QTEST_GUILESS_MAIN(TestCorruptInput)
#include "tst_corruptinput.moc"
