#include "importers/embeddings/projectorreader.h"

#include "importers/core/filesniffer.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::embeddings;
using namespace runlens::models;
using namespace runlens::models::embeddings;

namespace {

const QString kFixture = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/projector");

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

bool mentions(const Diagnostics& diagnostics, const QString& file, qint64 line, const QString& text)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.file == file && (line < 0 || d.line == line) && d.message.contains(text))
            return true;
    }
    return false;
}

QString dump(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines.append(d.toString());
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestProjectorReader : public QObject
{
    Q_OBJECT
private slots:
    void readsTorchFixture();
    void sniffsTheConfigByName();
    void metadataWithAndWithoutHeader_data();
    void metadataWithAndWithoutHeader();
    void badNumberNamesFileAndLine();
    void raggedLineEndsTable();
    void limitsCutRowsAndDims();
    void configVariants();
    void missingFilesAreReported();
};

void TestProjectorReader::readsTorchFixture()
{
    const ProjectorReadResult result = readProjectorFolder(kFixture + QStringLiteral("/projector_config.pbtxt"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(dump(result.diagnostics)));
    QCOMPARE(int(result.sets.size()), 2);
    const EmbeddingSet& features = *result.sets[0];
    QCOMPARE(features.name, QStringLiteral("features:00000"));
    QCOMPARE(features.rows, 60);
    QCOMPARE(features.dims, 16);
    QCOMPARE(features.metadataColumns, (QStringList { QStringLiteral("class"), QStringLiteral("score") }));
    QCOMPARE(features.cell(0, 0), QStringLiteral("class0"));
    QCOMPARE(features.cell(59, 1), QStringLiteral("29.5"));
    QVERIFY(features.hasSprite());
    QCOMPARE(features.spriteImageSize, QSize(8, 8));
    QVERIFY(features.spritePath.endsWith(QStringLiteral("00000/features/sprite.png")));
    // First value of tensors.tsv, as torch wrote it.
    QCOMPARE(features.values[0], -3.458730697631836f);

    const EmbeddingSet& words = *result.sets[1];
    QCOMPARE(words.name, QStringLiteral("words:00003"));
    QCOMPARE(words.rows, 12);
    QCOMPARE(words.dims, 4);
    QCOMPARE(words.metadataColumns.size(), 1);
    QCOMPARE(words.cell(0, 0), QStringLiteral("word0"));
    QCOMPARE(words.cell(11, 0), QStringLiteral("word11"));
    QVERIFY(!words.hasSprite());

    ProjectorImporter importer(kFixture + QStringLiteral("/projector_config.pbtxt"));
    const ImportUpdate update = importer.poll({});
    QCOMPARE(update.status, ImportStatus::Ok);
    QVERIFY(update.embeddingSummaries);
    QCOMPARE(update.embeddingSummaries->size(), 2);
    QCOMPARE(update.embeddingSummaries->first().points, 60);
    QVERIFY(update.embeddingSummaries->first().sprite);
}

void TestProjectorReader::sniffsTheConfigByName()
{
    QFile file(kFixture + QStringLiteral("/projector_config.pbtxt"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray head = file.readAll();
    const SniffResult result = FileSniffer::sniff("projector_config.pbtxt", "run",
                                                  std::string_view(head.constData(), head.size()), head.size());
    QCOMPARE(result.kind, ArtifactKind::EmbeddingProjector);
    QCOMPARE(artifactKindId(result.kind), QStringLiteral("tensorboard-projector"));
}

void TestProjectorReader::metadataWithAndWithoutHeader_data()
{
    QTest::addColumn<QByteArray>("metadata");
    QTest::addColumn<QStringList>("columns");
    QTest::addColumn<QString>("lastCell");
    QTest::addColumn<int>("warnings");
    QTest::newRow("single column, no header")
        << QByteArray("a\nb\nc\n") << QStringList { QStringLiteral("label") } << QStringLiteral("c") << 0;
    QTest::newRow("header row") << QByteArray("name\tkind\na\tx\nb\ty\nc\tz\n")
                                << QStringList { QStringLiteral("name"), QStringLiteral("kind") } << QStringLiteral("c")
                                << 0;
    QTest::newRow("CRLF, no final newline")
        << QByteArray("name\tkind\r\na\tx\r\nb\ty\r\nc\tz")
        << QStringList { QStringLiteral("name"), QStringLiteral("kind") } << QStringLiteral("c") << 0;
    QTest::newRow("too few rows") << QByteArray("a\nb\n") << QStringList { QStringLiteral("label") } << QString() << 1;
    QTest::newRow("too many rows") << QByteArray("a\nb\nc\nd\n") << QStringList { QStringLiteral("label") }
                                   << QStringLiteral("c") << 1;
    QTest::newRow("short row") << QByteArray("name\tkind\na\tx\nb\nc\tz\n")
                               << QStringList { QStringLiteral("name"), QStringLiteral("kind") } << QStringLiteral("c")
                               << 1;
}

void TestProjectorReader::metadataWithAndWithoutHeader()
{
    QFETCH(QByteArray, metadata);
    QFETCH(QStringList, columns);
    QFETCH(QString, lastCell);
    QFETCH(int, warnings);
    EmbeddingSet set;
    set.rows = 3;
    set.dims = 1;
    set.values = { 1, 2, 3 };
    Diagnostics diagnostics;
    parseMetadataTsv(metadata, QStringLiteral("/x/metadata.tsv"), set, diagnostics);
    QCOMPARE(set.metadataColumns, columns);
    QCOMPARE(int(set.metadata.size()), 3);
    QCOMPARE(set.cell(2, 0), lastCell);
    QCOMPARE(diagnostics.size(), warnings);
    for (const QStringList& row : set.metadata)
        QCOMPARE(row.size(), columns.size());
}

void TestProjectorReader::badNumberNamesFileAndLine()
{
    EmbeddingSet set;
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/data/tensors.tsv");
    parseTensorsTsv("1\t2\n3\tx4\n5\tnan\n7\t8\n", path, {}, set, diagnostics);
    QCOMPARE(set.rows, 4);
    QCOMPARE(set.dims, 2);
    QCOMPARE(set.values, (std::vector<float> { 1, 2, 3, 0, 5, 0, 7, 8 }));
    QVERIFY2(mentions(diagnostics, path, 2, QStringLiteral("x4")), qPrintable(dump(diagnostics)));
    QVERIFY2(mentions(diagnostics, path, 3, QStringLiteral("nan")), qPrintable(dump(diagnostics)));
    QVERIFY(diagnostics.first().toString().contains(path));
}

void TestProjectorReader::raggedLineEndsTable()
{
    EmbeddingSet set;
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/data/tensors.tsv");
    parseTensorsTsv("1\t2\n3\t4\n5\n7\t8\n", path, {}, set, diagnostics);
    QCOMPARE(set.rows, 2);
    QCOMPARE(diagnostics.size(), 1);
    QCOMPARE(diagnostics.first().line, 3);
}

void TestProjectorReader::limitsCutRowsAndDims()
{
    ProjectorLimits limits;
    limits.maxRows = 2;
    limits.maxDims = 3;
    EmbeddingSet set;
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/data/big.tsv");
    parseTensorsTsv("1\t2\t3\t4\n5\t6\t7\t8\n9\t10\t11\t12\n", path, limits, set, diagnostics);
    QCOMPARE(set.rows, 2);
    QCOMPARE(set.dims, 3);
    QCOMPARE(set.values, (std::vector<float> { 1, 2, 3, 5, 6, 7 }));
    QVERIFY2(mentions(diagnostics, path, 1, QStringLiteral("dimensions")), qPrintable(dump(diagnostics)));
    QVERIFY2(mentions(diagnostics, path, 3, QStringLiteral("points")), qPrintable(dump(diagnostics)));
}

void TestProjectorReader::configVariants()
{
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/c/projector_config.pbtxt");
    // Angle brackets, a list value, comments, single quotes and escapes are all text format.
    const ProjectorConfig config = parseProjectorConfig(
        "# written by hand\nmodel_checkpoint_path: 'ckpt'\nembeddings <\n  tensor_name: \"a\\\"b\"\n"
        "  tensor_path: 't.tsv'\n  sprite { image_path: 's.png' single_image_dim: [28, 14] }\n>\n"
        "embeddings { tensor_name: 'second' }\n",
        path, diagnostics);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(dump(diagnostics)));
    QCOMPARE(config.modelCheckpointPath, QStringLiteral("ckpt"));
    QCOMPARE(int(config.embeddings.size()), 2);
    QCOMPARE(config.embeddings[0].tensorName, QStringLiteral("a\"b"));
    QCOMPARE(config.embeddings[0].spriteImageSize, QSize(28, 14));
    QCOMPARE(config.embeddings[1].tensorName, QStringLiteral("second"));

    Diagnostics broken;
    const ProjectorConfig partial = parseProjectorConfig(
        "embeddings {\n tensor_path: 'a.tsv'\n}\nembeddings {\n tensor_path: 'b.tsv\n}\n", path, broken);
    QCOMPARE(int(partial.embeddings.size()), 2);
    QCOMPARE(partial.embeddings[0].tensorPath, QStringLiteral("a.tsv"));
    QVERIFY(!broken.isEmpty());
    QCOMPARE(broken.first().line, 5);
}

void TestProjectorReader::missingFilesAreReported()
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("projector_config.pbtxt"));
    QVERIFY(writeFile(config,
                      "embeddings { tensor_name: 'a' tensor_path: 'missing.tsv' }\n"
                      "embeddings { tensor_name: 'b' tensor_path: 'b/t.tsv' metadata_path: 'b/m.tsv' "
                      "sprite { image_path: 'b/s.png' } }\n"
                      "embeddings { tensor_name: 'c' }\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("b/t.tsv")), "1\t2\n3\t4\n"));
    const ProjectorReadResult result = readProjectorFolder(config);
    QCOMPARE(int(result.sets.size()), 1);
    QCOMPARE(result.sets[0]->name, QStringLiteral("b"));
    QVERIFY(!result.sets[0]->hasMetadata());
    QVERIFY2(
        mentions(result.diagnostics, dir.filePath(QStringLiteral("missing.tsv")), -1, QStringLiteral("cannot open")),
        qPrintable(dump(result.diagnostics)));
    QVERIFY(mentions(result.diagnostics, dir.filePath(QStringLiteral("b/m.tsv")), -1, QStringLiteral("cannot open")));
    QVERIFY(mentions(result.diagnostics, dir.filePath(QStringLiteral("b/s.png")), -1, QStringLiteral("sprite")));
    QVERIFY(mentions(result.diagnostics, config, -1, QStringLiteral("tensor_path")));

    ProjectorImporter importer(config);
    QCOMPARE(importer.poll({}).status, ImportStatus::Partial);
    ProjectorImporter absent(dir.filePath(QStringLiteral("nothing.pbtxt")));
    QCOMPARE(absent.poll({}).status, ImportStatus::Failed);
}

QTEST_GUILESS_MAIN(TestProjectorReader)
#include "tst_projectorreader.moc"
