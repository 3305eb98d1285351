#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
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

        // Update a copy from the current sources; the shipped file must need no change of substance.
        QProcess lupdate;
        lupdate.setWorkingDirectory(source);
        lupdate.start(QStringLiteral(RUNLENS_LUPDATE),
                      {QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-extensions"),
                       QStringLiteral("cpp,h"), QStringLiteral("app"), QStringLiteral("widgets"),
                       QStringLiteral("models"), QStringLiteral("importers"), QStringLiteral("-ts"), copy});
        QVERIFY(lupdate.waitForFinished(300000));
        QCOMPARE(lupdate.exitCode(), 0);

        const Catalogue c = readCatalogue(copy);
        QVERIFY2(c.messages > 100, "lupdate found far too few strings");
        QVERIFY2(c.unfinished.isEmpty(),
                 qPrintable(QStringLiteral("untranslated: ") + c.unfinished.join(QStringLiteral(" | "))));
        QVERIFY2(c.obsolete.isEmpty(),
                 qPrintable(QStringLiteral("no longer used: ") + c.obsolete.join(QStringLiteral(" | "))));
        QCOMPARE(readCatalogue(shipped).messages, c.messages);
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
