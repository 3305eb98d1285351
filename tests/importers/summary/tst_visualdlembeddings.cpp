// VisualDL add_embeddings records: points, labels, headers, limits and damage.

#include "importers/summary/visualdlreader.h"

#include "importers/core/artifactimporter.h"
#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/summary/proto/vdl_record.pb.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include "tests/importers/summary/pollresult.h"
#include "tests/importers/summary/visualdltestrecords.h"
#include "tests/pythonoracle.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::models::summary;
using namespace runlens::test;
using namespace runlens::test::vdl;

class TestVisualDlEmbeddings : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void embeddingsOfVisualDlsDemoLog()
    {
        // The start of VisualDL's hidi demo log (tests/data/embeddings/README), compared with python3-protobuf
        // decoding it with VisualDL's field numbers.
        const QString file
            = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/visualdl/hidi/vdlrecords.1618468473.log");
        RUNLENS_PYTHON_ORACLE(
            output, { QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/visualdl/decode_embeddings.py"), file });
        const QJsonArray expected
            = QJsonDocument::fromJson(output.toUtf8()).object()[QStringLiteral("vdlrecords.1618468473.log")].toArray();
        QCOMPARE(expected.size(), 1);

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY2(update.diagnostics.isEmpty(), qPrintable(update.diagnostics.value(0).message));
        QCOMPARE(reader.otherValueCount(QStringLiteral("default")), 0);
        QVERIFY(update.embeddings);
        QCOMPARE(update.embeddings->size(), std::size_t(1));
        const models::embeddings::EmbeddingSet& set = *update.embeddings->front();
        QCOMPARE(set.rows, 40);
        QCOMPARE(set.dims, 25);
        // One label per point and no header: a single column, named as projector folders name it.
        QCOMPARE(set.metadataColumns, QStringList { QStringLiteral("label") });
        QCOMPARE(set.cell(0, 0), QStringLiteral("<user>"));
        QCOMPARE(set.source, QFileInfo(file).absoluteFilePath());
        compareWithOracle(set, expected[0].toObject());
        QVERIFY(update.embeddingSummaries);
        QCOMPARE(update.embeddingSummaries->size(), 1);
        QCOMPARE(update.embeddingSummaries->front().name, QStringLiteral("default"));
        QCOMPARE(update.embeddingSummaries->front().points, 40);
        QCOMPARE(reader.displayName(), QString()); // the demo's meta_data has no display name
    }

    void embeddingsWithAMetadataHeader()
    {
        const QString file
            = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/visualdl/header/vdlrecords.1700000100.log");
        RUNLENS_PYTHON_ORACLE(
            output, { QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/visualdl/decode_embeddings.py"), file });
        const QJsonArray expected
            = QJsonDocument::fromJson(output.toUtf8()).object()[QStringLiteral("vdlrecords.1700000100.log")].toArray();
        QCOMPARE(expected.size(), 2);

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.diagnostics.isEmpty());
        QVERIFY(update.embeddings);
        QCOMPARE(update.embeddings->size(), std::size_t(2));
        const models::embeddings::EmbeddingSet& labelled = *(*update.embeddings)[0];
        QCOMPARE(labelled.metadataColumns, (QStringList { QStringLiteral("label_a"), QStringLiteral("label_b") }));
        QCOMPARE(labelled.cell(4, 1), QStringLiteral("label_b_5"));
        // VisualDL's add_embeddings example, as float32.
        QCOMPARE(labelled.row(0)[0], float(1.3561076367500755));
        QCOMPARE(labelled.row(4)[2], float(1.5214136352476377));
        compareWithOracle(labelled, expected[0].toObject());
        const models::embeddings::EmbeddingSet& words = *(*update.embeddings)[1];
        QCOMPARE(words.name, QStringLiteral("words"));
        QCOMPARE(words.metadataColumns, QStringList { QStringLiteral("label") });
        compareWithOracle(words, expected[1].toObject());
        QCOMPARE(reader.displayName(), QStringLiteral("header"));
    }

    void embeddingsWithoutHeaderOrLabels()
    {
        const QString file = path(QStringLiteral("vdlrecords.embnoheader.log"));
        QVERIFY(writeFile(file,
                          embeddingsRecord("two", 0, { { 1, 2 }, { 3, 4 } }, { { "a", "x" }, { "b" } })
                              + embeddingsRecord("bare", 0, { { 1, 2, 3 } })));
        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QCOMPARE(update.embeddings->size(), std::size_t(2));
        const models::embeddings::EmbeddingSet& two = *(*update.embeddings)[0];
        QCOMPARE(two.metadataColumns, (QStringList { QStringLiteral("label 1"), QStringLiteral("label 2") }));
        QCOMPARE(two.cell(1, 0), QStringLiteral("b"));
        QCOMPARE(two.cell(1, 1), QString()); // a missing label reads as empty
        const models::embeddings::EmbeddingSet& bare = *(*update.embeddings)[1];
        QVERIFY(!bare.hasMetadata());
        QVERIFY(bare.metadata.empty());
        QCOMPARE(bare.rows, 1);
        QCOMPARE(bare.dims, 3);
    }

    void damagedEmbeddingsKeepTheRest()
    {
        const QString file = path(QStringLiteral("vdlrecords.embdamaged.log"));
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float inf = std::numeric_limits<float>::infinity();
        QByteArray bytes
            = embeddingsRecord("emb", 0, { { 1, 2, 3 }, { 4, 5 }, { nan, 6, -inf }, { 7, 8, 9, 10 }, { 11, 12, 13 } },
                               { { "p0" }, { "p1" }, { "p2" }, { "p3" }, { "p4" } });
        bytes += embeddingsRecord("empty", 0, {}); // no points: skipped whole
        bytes += embeddingsRecord("flat", 0, { {}, { 1.0f } }); // the first point has no coordinates
        bytes += scalarRecord("loss", 1, 1700000000001, 0.5f);
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Partial);
        QCOMPARE(update.recordsRead, 4);
        QVERIFY(update.embeddings);
        QCOMPARE(update.embeddings->size(), std::size_t(1));
        const models::embeddings::EmbeddingSet& set = *update.embeddings->front();
        QCOMPARE(set.rows, 3);
        QCOMPARE(set.dims, 3);
        QCOMPARE(set.values, (std::vector<float> { 1, 2, 3, 0, 6, 0, 11, 12, 13 }));
        QCOMPARE(set.metadata.size(), std::size_t(3));
        QCOMPARE(set.cell(1, 0), QStringLiteral("p2"));
        QCOMPARE(set.cell(2, 0), QStringLiteral("p4"));
        QCOMPARE(update.embeddingSummaries->size(), 1);
        // The scalar after the damaged values is read.
        QCOMPARE(update.scalars.size(), std::size_t(1));

        QStringList warnings;
        for (const Diagnostic& d : update.diagnostics) {
            QCOMPARE(d.severity, Severity::Warning);
            QCOMPARE(d.file, QFileInfo(file).absoluteFilePath());
            warnings.append(d.message);
        }
        QCOMPARE(warnings.size(), 4);
        QVERIFY2(warnings.filter(QStringLiteral("2 point")).size() == 1, qPrintable(warnings.join('\n')));
        QVERIFY2(warnings.filter(QStringLiteral("2 coordinate")).size() == 1, qPrintable(warnings.join('\n')));
        QVERIFY2(warnings.filter(QStringLiteral("\"empty\"")).size() == 1, qPrintable(warnings.join('\n')));
        QVERIFY2(warnings.filter(QStringLiteral("\"flat\"")).size() == 1, qPrintable(warnings.join('\n')));
    }

    void embeddingLimitsCutWithAWarningNamingTheFile()
    {
        const QString file = path(QStringLiteral("vdlrecords.emblimits.log"));
        std::vector<std::vector<float>> rows;
        for (int r = 0; r < 10; ++r)
            rows.push_back({ float(r), float(r) + 0.5f, float(r) + 0.25f, -float(r) });
        QVERIFY(writeFile(file, embeddingsRecord("big", 2, rows)));

        VisualDlReader reader(file);
        importers::embeddings::ProjectorLimits limits;
        limits.maxRows = 6;
        limits.maxDims = 2;
        reader.setEmbeddingLimits(limits);
        const ImportUpdate update = reader.poll({});
        // A limit is not damage: the file reads as Ok, with what was cut said.
        QCOMPARE(update.status, ImportStatus::Ok);
        const models::embeddings::EmbeddingSet& set = *update.embeddings->front();
        QCOMPARE(set.rows, 6);
        QCOMPARE(set.dims, 2);
        QCOMPARE(set.row(5)[0], 5.0f);
        QCOMPARE(set.row(5)[1], 5.5f);
        QCOMPARE(update.diagnostics.size(), 2);
        for (const Diagnostic& d : update.diagnostics) {
            QCOMPARE(d.severity, Severity::Warning);
            QCOMPARE(d.file, QFileInfo(file).absoluteFilePath());
            QVERIFY2(d.message.contains(QStringLiteral("\"big\" at step 2")), qPrintable(d.message));
        }
        QVERIFY(update.diagnostics[0].message.contains(QStringLiteral("4 dimensions; only the first 2")));
        QVERIFY(update.diagnostics[1].message.contains(QStringLiteral("10 points; only the first 6")));

        // The values limit bounds rows * dims as well.
        VisualDlReader small(file);
        limits = {};
        limits.maxValues = 12;
        small.setEmbeddingLimits(limits);
        QCOMPARE(small.poll({}).embeddings->front()->rows, 3);

        // The number of tags with embeddings is bounded too; known tags still get their new values.
        const QString many = path(QStringLiteral("vdlrecords.embmany.log"));
        QVERIFY(writeFile(many,
                          embeddingsRecord("t0", 0, { { 1 } }) + embeddingsRecord("t1", 0, { { 2 } })
                              + embeddingsRecord("t2", 0, { { 3 } }) + embeddingsRecord("t3", 0, { { 4 } })
                              + embeddingsRecord("t0", 1, { { 5 }, { 6 } })));
        VisualDlReader bounded(many);
        limits = {};
        limits.maxEmbeddings = 2;
        bounded.setEmbeddingLimits(limits);
        const ImportUpdate cut = bounded.poll({});
        QCOMPARE(cut.status, ImportStatus::Ok);
        QCOMPARE(cut.embeddings->size(), std::size_t(2));
        QCOMPARE(cut.embeddings->at(0)->name, QStringLiteral("t0"));
        QCOMPARE(cut.embeddings->at(0)->rows, 2);
        QCOMPARE(cut.embeddings->at(1)->name, QStringLiteral("t1"));
        QCOMPARE(cut.diagnostics.size(), 1);
        QVERIFY2(cut.diagnostics[0].message.contains(QStringLiteral("more than 2 tags")),
                 qPrintable(cut.diagnostics[0].message));
        QVERIFY(cut.diagnostics[0].message.contains(QStringLiteral("\"t2\"")));
    }

    void laterEmbeddingsReplaceTheTagsSet()
    {
        const QString file = path(QStringLiteral("vdlrecords.embtail.log"));
        QVERIFY(writeFile(file, embeddingsRecord("a", 0, { { 1, 2 } }) + embeddingsRecord("b", 0, { { 3 } })));
        VisualDlReader reader(file);
        const ImportUpdate first = reader.poll({});
        QCOMPARE(first.embeddings->size(), std::size_t(2));

        // Nothing new: nothing delivered.
        const ImportUpdate idle = reader.poll({});
        QVERIFY(!idle.embeddings);
        QVERIFY(!idle.embeddingSummaries);

        QVERIFY(writeFile(file, embeddingsRecord("a", 5, { { 1, 2 }, { 3, 4 }, { 5, 6 } }), true));
        const ImportUpdate second = reader.poll({});
        QCOMPARE(second.embeddings->size(), std::size_t(1));
        QCOMPARE(second.embeddings->front()->name, QStringLiteral("a"));
        QCOMPARE(second.embeddings->front()->rows, 3);
        // What `runlens info` says covers every set of the file.
        QCOMPARE(second.embeddingSummaries->size(), 2);
        QCOMPARE(second.embeddingSummaries->at(0).points, 3);
        QCOMPARE(second.embeddingSummaries->at(1).name, QStringLiteral("b"));
    }
};

QTEST_GUILESS_MAIN(TestVisualDlEmbeddings)
#include "tst_visualdlembeddings.moc"
