#include "importers/core/filemapping.h"
#include "importers/memory/jsonfields.h"
#include "importers/memory/memorytimelinereader.h"
#include "importers/pipeline/pipelinereader.h"
#include "importers/tensor/npyfile.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

struct Catalogue
{
    int messages = 0;
    QStringList unfinished; ///< source texts without a translation
    QStringList obsolete; ///< translations whose source text no longer exists
};

Catalogue readCatalogue(const QString& path)
{
    Catalogue c;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return c;
    QXmlStreamReader xml(&file);
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("message")) {
            ++c.messages;
        } else if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
            if (type == QLatin1String("unfinished") || text.isEmpty())
                c.unfinished << source;
            else if (type == QLatin1String("obsolete") || type == QLatin1String("vanished"))
                c.obsolete << source;
        }
    }
    return c;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

/// The messages of `diagnostics`, one per line, to find one in and to show when none matches.
QString messagesOf(const runlens::models::Diagnostics& diagnostics)
{
    QStringList out;
    for (const runlens::models::Diagnostic& d : diagnostics)
        out << d.message;
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT
private slots:
    void chineseIsComplete()
    {
        const QString source = QStringLiteral(RUNLENS_SOURCE_DIR);
        const QString shipped = source + QStringLiteral("/translations/runlens_zh_CN.ts");
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("runlens_zh_CN.ts"));
        QVERIFY(QFile::copy(shipped, copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);

        // Update a copy from the current sources; the shipped file must need no change of substance. Includes
        // name their file from the source root, where lupdate must look to find the classes' namespaces.
        QProcess lupdate;
        lupdate.setWorkingDirectory(source);
        lupdate.start(QStringLiteral(RUNLENS_LUPDATE),
                      { QStringLiteral("-I"), QStringLiteral("."), QStringLiteral("-locations"), QStringLiteral("none"),
                        QStringLiteral("-extensions"), QStringLiteral("cpp,h"), QStringLiteral("app"),
                        QStringLiteral("widgets"), QStringLiteral("models"), QStringLiteral("importers"),
                        QStringLiteral("-ts"), copy });
        QVERIFY(lupdate.waitForFinished(300000));
        QCOMPARE(lupdate.exitCode(), 0);

        const ::Catalogue c = readCatalogue(copy);
        QVERIFY2(c.messages > 100, "lupdate found far too few strings");
        QVERIFY2(c.unfinished.isEmpty(),
                 qPrintable(QStringLiteral("untranslated: ") + c.unfinished.join(QStringLiteral(" | "))));
        QVERIFY2(c.obsolete.isEmpty(),
                 qPrintable(QStringLiteral("no longer used: ") + c.obsolete.join(QStringLiteral(" | "))));
        QCOMPARE(readCatalogue(shipped).messages, c.messages);
    }

    void helpersTranslateUnderTheContextLupdateRecords()
    {
        // lupdate files a plain tr() in a member function under the class, whatever function it calls: a
        // namespace-level tr() helper called from a class member looked its text up under another context and
        // showed English. Text is translated through a struct with Q_DECLARE_TR_FUNCTIONS instead.
        const QString source = QStringLiteral(RUNLENS_SOURCE_DIR);
        const QRegularExpression helper(QStringLiteral("^\\s*(static\\s+|inline\\s+)?QString\\s+tr\\s*\\("),
                                        QRegularExpression::MultilineOption);
        QStringList found;
        for (const char* layer : { "app", "widgets", "models", "importers" }) {
            QDirIterator it(source + QLatin1Char('/') + QLatin1String(layer),
                            { QStringLiteral("*.cpp"), QStringLiteral("*.h") }, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile file(it.next());
                QVERIFY(file.open(QIODevice::ReadOnly));
                if (helper.match(QString::fromUtf8(file.readAll())).hasMatch())
                    found << it.filePath().mid(source.size() + 1);
            }
        }
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("tr() helpers: ") + found.join(QLatin1Char(' '))));
    }

    void readersShowChinese()
    {
        // The shipped catalogue, compiled as the build compiles it, and the readers' real error paths.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString qm = dir.filePath(QStringLiteral("runlens_zh_CN.qm"));
        QProcess lrelease;
        lrelease.start(QStringLiteral(RUNLENS_LRELEASE),
                       { QStringLiteral("-silent"),
                         QStringLiteral(RUNLENS_SOURCE_DIR) + QStringLiteral("/translations/runlens_zh_CN.ts"),
                         QStringLiteral("-qm"), qm });
        QVERIFY(lrelease.waitForFinished(120000));
        QCOMPARE(lrelease.exitCode(), 0);
        QTranslator translator;
        QVERIFY(translator.load(qm));
        QVERIFY(QCoreApplication::installTranslator(&translator));
        auto uninstall = qScopeGuard([&] { QCoreApplication::removeTranslator(&translator); });

        // importers/memory/jsonfields.cpp, from JsonFields's members.
        runlens::models::Diagnostics diagnostics;
        runlens::importers::memory::JsonFields fields(QStringLiteral("m.json"), diagnostics);
        runlens::importers::ImportBudget budget(16);
        QVERIFY(!fields.parse(QByteArrayLiteral("{bad"), budget));
        QVERIFY(!fields.number(nlohmann::json { { "size", "big" } }, "size", QStringLiteral("row"), 3));
        QCOMPARE(diagnostics.size(), 2);
        QVERIFY2(diagnostics.at(0).message.startsWith(u"不是有效的 JSON："), qPrintable(messagesOf(diagnostics)));
        QCOMPARE(diagnostics.at(1).message, QStringLiteral("row 3：“size”不是数字；已忽略该值"));

        // importers/memory/memorytimelinereader.cpp, through a text that is passed to the helper.
        const runlens::importers::memory::MemoryReadResult timeline
            = runlens::importers::memory::readMemoryTimelineBytes("{}", QStringLiteral("t.json"));
        QVERIFY2(messagesOf(timeline.diagnostics).contains(u"不是内存时间线：应为 JSON 数组"),
                 qPrintable(messagesOf(timeline.diagnostics)));

        // importers/core/filemapping.cpp.
        QString error;
        const QString missing = dir.filePath(QStringLiteral("missing.bin"));
        QVERIFY(!runlens::importers::FileMapping::map(missing, 0, 16, error));
        QVERIFY2(error.startsWith(missing + QStringLiteral("：无法打开：")), qPrintable(error));

        // importers/tensor/npyfile.cpp: four strings, which numpy can hold and RunLens does not read.
        QByteArray header = QByteArrayLiteral("{'descr': '<U2', 'fortran_order': False, 'shape': (4,), }");
        while ((10 + header.size() + 1) % 64 != 0)
            header += ' ';
        header += '\n';
        QByteArray npy = QByteArrayLiteral("\x93NUMPY\x01\x00");
        npy += char(header.size() & 0xff);
        npy += char(header.size() >> 8);
        npy += header + QByteArray(4 * 8, '\0');
        const QString npyPath = dir.filePath(QStringLiteral("strings.npy"));
        QVERIFY(writeFile(npyPath, npy));
        const runlens::importers::tensor::NpyFileResult opened = runlens::importers::tensor::openNpyFile(npyPath);
        QVERIFY(!opened.tensor);
        QVERIFY2(opened.error.contains(u"：元素类型“<U2”（"), qPrintable(opened.error));

        // importers/pipeline/pipelinefiles.cpp, read through readDataPipeline().
        const QString profiler = dir.filePath(QStringLiteral("profiler"));
        QVERIFY(QDir().mkpath(profiler));
        QVERIFY(writeFile(profiler + QStringLiteral("/minddata_pipeline_summary_0.json"), QByteArrayLiteral("{bad")));
        const runlens::importers::pipeline::PipelineReadResult pipeline
            = runlens::importers::pipeline::readDataPipeline(profiler, 0);
        QVERIFY2(messagesOf(pipeline.diagnostics).contains(u"不是有效的 JSON（"),
                 qPrintable(messagesOf(pipeline.diagnostics)));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
