// The shared-mime-info types of packaging/runlens-mime.xml, compiled by update-mime-database into a private
// database the way a package installation compiles them, and asked through QMimeDatabase (the same lookup
// file managers do) about real files from the samples. The desktop entry and the metainfo must name
// exactly those types.

#include "tests/testutils.h"

#include <QFile>
#include <QMimeDatabase>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace {

const QString kPackagingDir = QStringLiteral(RUNLENS_PACKAGING_DIR);
const QString kRunLensPrefix = QStringLiteral("application/x-runlens-");

QByteArray readAll(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

/// The type names the XML defines, read with a regular expression rather than through the database under test.
QStringList definedTypes()
{
    QStringList types;
    const QString xml = QString::fromUtf8(readAll(kPackagingDir + QStringLiteral("/runlens-mime.xml")));
    static const QRegularExpression kType(QStringLiteral("<mime-type type=\"([^\"]+)\""));
    for (auto it = kType.globalMatch(xml); it.hasNext();)
        types << it.next().captured(1);
    types.sort();
    return types;
}

} // namespace

class TestMimeTypes : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void typesAreDefined();
    void inheritance_data();
    void inheritance();
    void samples_data();
    void samples();
    void byContent_data();
    void byContent();
    void othersKeepTheirTypes_data();
    void othersKeepTheirTypes();
    void desktopEntryListsTheTypes();
    void metainfoProvidesTheTypes();

private:
    QString copyAs(const QString& source, const QString& name);
    QString writeFile(const QString& name, const QByteArray& bytes);

    std::unique_ptr<QTemporaryDir> m_root;
    QString m_files;
};

void TestMimeTypes::initTestCase()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    const QString dataDir = m_root->filePath(QStringLiteral("share"));
    QVERIFY(QDir().mkpath(dataDir + QStringLiteral("/mime/packages")));
    QVERIFY(QFile::copy(kPackagingDir + QStringLiteral("/runlens-mime.xml"),
                        dataDir + QStringLiteral("/mime/packages/runlens.xml")));

    const QString updater = QStandardPaths::findExecutable(QStringLiteral("update-mime-database"));
    QVERIFY2(!updater.isEmpty(),
             "update-mime-database is missing: packaging/install-deps.sh installs shared-mime-info");
    QProcess update;
    update.start(updater, { dataDir + QStringLiteral("/mime") });
    QVERIFY(update.waitForFinished(60000));
    QVERIFY2(update.exitCode() == 0, update.readAllStandardError().constData());
    QVERIFY(QFile::exists(dataDir + QStringLiteral("/mime/mime.cache")));

    // Before the first QMimeDatabase: ours first, then the system's (for application/json, gzip, zip, ...);
    // an empty XDG_DATA_HOME keeps the user's own types out.
    const QString home = m_root->filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(home));
    qputenv("XDG_DATA_HOME", home.toLocal8Bit());
    qputenv("XDG_DATA_DIRS", (dataDir + QStringLiteral(":/usr/local/share:/usr/share")).toLocal8Bit());

    m_files = m_root->filePath(QStringLiteral("files"));
    QVERIFY(QDir().mkpath(m_files));
}

QString TestMimeTypes::copyAs(const QString& source, const QString& name)
{
    const QString target = m_files + QLatin1Char('/') + name;
    QFile::remove(target);
    return QFile::copy(source, target) ? target : QString();
}

QString TestMimeTypes::writeFile(const QString& name, const QByteArray& bytes)
{
    const QString target = m_files + QLatin1Char('/') + name;
    QFile file(target);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
        return {};
    return target;
}

void TestMimeTypes::typesAreDefined()
{
    const QStringList types = definedTypes();
    QCOMPARE(types.size(), 9);
    QMimeDatabase db;
    for (const QString& name : types) {
        QVERIFY2(name.startsWith(kRunLensPrefix), qPrintable(name));
        const QMimeType type = db.mimeTypeForName(name);
        QVERIFY2(type.isValid(), qPrintable(name));
        QVERIFY2(!type.comment().isEmpty(), qPrintable(name));
    }
    // Types the freedesktop.org database already has are not redefined.
    QVERIFY(!types.contains(QStringLiteral("application/json")));
}

void TestMimeTypes::inheritance_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("parent");
    QTest::newRow("trace is JSON") << "application/x-runlens-kineto-trace"
                                   << "application/json";
    QTest::newRow("compressed trace is gzip") << "application/x-runlens-kineto-trace-gzip"
                                              << "application/gzip";
    QTest::newRow("MindSpore IR is text") << "application/x-runlens-mindspore-ir"
                                          << "text/plain";
    QTest::newRow("npz is a zip archive") << "application/x-runlens-npz"
                                          << "application/zip";
}

void TestMimeTypes::inheritance()
{
    QFETCH(QString, type);
    QFETCH(QString, parent);
    QVERIFY(QMimeDatabase().mimeTypeForName(type).inherits(parent));
}

void TestMimeTypes::samples_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("type");
    QTest::newRow("Kineto trace") << "runs/pytorch_cnn_baseline/profiler/worker0.1795321632690.pt.trace.json"
                                  << "application/x-runlens-kineto-trace";
    QTest::newRow("Kineto trace, gzip") << "traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz"
                                        << "application/x-runlens-kineto-trace-gzip";
    QTest::newRow("PyTorch events")
        << "summaries/tensorboard/torch2_scalars/events.out.tfevents.1771594466.zyzkings.21024.0"
        << "application/x-runlens-tfevents";
    QTest::newRow("TF2 events .v2")
        << "summaries/tensorboard/tf2_tensor_scalars/events.out.tfevents.1585499054.Jaakkos-Mac-mini.local.11684.5.v2"
        << "application/x-runlens-tfevents";
    QTest::newRow("MindSpore summary")
        << "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS"
        << "application/x-runlens-mindspore-summary";
    QTest::newRow("MindSpore lineage")
        << "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_lineage"
        << "application/x-runlens-mindspore-summary";
    QTest::newRow("MindSpore IR") << "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir"
                                  << "application/x-runlens-mindspore-ir";
    QTest::newRow("ONNX") << "graphs/onnx/mnist-8.onnx"
                          << "application/x-runlens-onnx";
    QTest::newRow("npy") << "runs/pytorch_cnn_baseline/dump/step_0/fc1.bias.npy"
                         << "application/x-runlens-npy";
    QTest::newRow("npz") << "runs/pytorch_cnn_baseline/state_dict.npz"
                         << "application/x-runlens-npz";
}

void TestMimeTypes::samples()
{
    RUNLENS_REQUIRE_SAMPLES(samplesRoot);
    QFETCH(QString, path);
    QFETCH(QString, type);
    const QString file = samplesRoot + QLatin1Char('/') + path;
    QVERIFY2(QFile::exists(file), qPrintable(file));
    QCOMPARE(QMimeDatabase().mimeTypeForFile(file).name(), type);
}

void TestMimeTypes::byContent_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("type");
    // Renamed without an extension, so only the magic can tell.
    QTest::newRow("events by brain.Event")
        << "summaries/tensorboard/torch2_images/events.out.tfevents.1771595107.zyzkings.11980.0"
        << "application/x-runlens-tfevents";
    QTest::newRow("TF2 events by brain.Event")
        << "summaries/tensorboard/tf2_tensor_scalars/events.out.tfevents.1585499054.Jaakkos-Mac-mini.local.11684.5.v2"
        << "application/x-runlens-tfevents";
    QTest::newRow("MindSpore summary by MindSpore.Event")
        << "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS"
        << "application/x-runlens-mindspore-summary";
    QTest::newRow("npy by \\x93NUMPY") << "runs/pytorch_cnn_baseline/dump/step_0/conv1.weight.npy"
                                       << "application/x-runlens-npy";
    QTest::newRow("MindSpore 2.x IR by '# IR entry'") << "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir"
                                                      << "application/x-runlens-mindspore-ir";
    QTest::newRow("MindSpore 1.x IR by '#IR entry'") << "graphs/mindspore_ir/read_ir_files.md.ex1_ms1x_format.ir"
                                                     << "application/x-runlens-mindspore-ir";
}

void TestMimeTypes::byContent()
{
    RUNLENS_REQUIRE_SAMPLES(samplesRoot);
    QFETCH(QString, sample);
    QFETCH(QString, type);
    const QString copy = copyAs(samplesRoot + QLatin1Char('/') + sample, QStringLiteral("renamed_without_extension"));
    QVERIFY(!copy.isEmpty());
    QCOMPARE(QMimeDatabase().mimeTypeForFile(copy).name(), type);
    QCOMPARE(QMimeDatabase().mimeTypeForFile(copy, QMimeDatabase::MatchContent).name(), type);
}

void TestMimeTypes::othersKeepTheirTypes_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("type");
    QTest::newRow("plain JSON") << "metrics.json" << QByteArray("{\"loss\": 1.0}\n") << "application/json";
    QTest::newRow("gzip that is not a trace")
        << "logs.tar.gz" << QByteArray::fromHex("1f8b0800000000000003") << "application/x-compressed-tar";
    QTest::newRow("text that is not an IR") << "readme.txt" << QByteArray("IR entry\n") << "text/plain";
    QTest::newRow("a safetensors file by name")
        << "model.safetensors" << QByteArray::fromHex("0200000000000000") + QByteArray("{}")
        << "application/x-runlens-safetensors";
}

void TestMimeTypes::othersKeepTheirTypes()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, type);
    const QString file = writeFile(name, bytes);
    QVERIFY(!file.isEmpty());
    QCOMPARE(QMimeDatabase().mimeTypeForFile(file).name(), type);
}

void TestMimeTypes::desktopEntryListsTheTypes()
{
    const QString entry
        = QString::fromUtf8(readAll(kPackagingDir + QStringLiteral("/io.github.runlens.RunLens.desktop")));
    static const QRegularExpression kMimeLine(QStringLiteral("^MimeType=(.*)$"), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = kMimeLine.match(entry);
    QVERIFY(match.hasMatch());
    QStringList listed = match.captured(1).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    QVERIFY2(listed.removeAll(QStringLiteral("inode/directory")) == 1, "folders open with RunLens");
    listed.sort();
    QCOMPARE(listed, definedTypes());
}

void TestMimeTypes::metainfoProvidesTheTypes()
{
    const QString metainfo
        = QString::fromUtf8(readAll(kPackagingDir + QStringLiteral("/io.github.runlens.RunLens.metainfo.xml.in")));
    static const QRegularExpression kMediaType(QStringLiteral("<mediatype>([^<]+)</mediatype>"));
    QStringList provided;
    for (auto it = kMediaType.globalMatch(metainfo); it.hasNext();)
        provided << it.next().captured(1);
    provided.sort();
    QCOMPARE(provided, definedTypes());
}

QTEST_GUILESS_MAIN(TestMimeTypes)
#include "tst_mimetypes.moc"
