#include "app/notespanel.h"
#include "app/runnotes.h"

#include <QCryptographicHash>
#include <QDir>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::app;

namespace {

QStringList listing(const QString& folder)
{
    QStringList names;
    QDirIterator it(folder, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        names << it.next();
    names.sort();
    return names;
}

} // namespace

class TestRunNotes : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_runnotes"));
        QDir(RunNotes::notesFolder()).removeRecursively();
    }

    void pathIsOutsideTheRunFolder()
    {
        QTemporaryDir run;
        QTemporaryDir other;
        const QString path = RunNotes::pathFor(run.path());
        QVERIFY(!path.startsWith(run.path() + QLatin1Char('/')));
        const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QCOMPARE(QFileInfo(path).absolutePath(), data + QStringLiteral("/notes"));
        // The name is the SHA-1 of the folder's absolute path, computed here on its own.
        const QByteArray sha1
            = QCryptographicHash::hash(QDir(run.path()).absolutePath().toUtf8(), QCryptographicHash::Sha1).toHex();
        QCOMPARE(QFileInfo(path).fileName(), QString::fromLatin1(sha1) + QStringLiteral(".md"));
        QCOMPARE(RunNotes::pathFor(run.path() + QStringLiteral("/.")), path);
        QVERIFY(RunNotes::pathFor(other.path()) != path);
    }

    void saveAndLoad()
    {
        QTemporaryDir run;
        const QStringList before = listing(run.path());
        QCOMPARE(RunNotes::load(run.path()), QString()); // none yet
        const QString text
            = QStringLiteral("# lr 3e-4\n\nLoss spikes at step 1200 \u2014 \u5b66\u4e60\u7387\u592a\u9ad8\u3002\n");
        QString error;
        QVERIFY2(RunNotes::save(run.path(), text, &error), qPrintable(error));
        QCOMPARE(RunNotes::load(run.path()), text);
        QVERIFY(QFile::exists(RunNotes::pathFor(run.path())));
        QCOMPARE(listing(run.path()), before); // nothing was written into the run folder
        // Emptied notes leave no file behind.
        QVERIFY(RunNotes::save(run.path(), QStringLiteral("  \n"), &error));
        QVERIFY(!QFile::exists(RunNotes::pathFor(run.path())));
        QCOMPARE(RunNotes::load(run.path()), QString());
    }

    void unreadableNotesSayWhy()
    {
        QTemporaryDir run;
        // A folder where the notes file should be cannot be read as one, whoever runs the test.
        QVERIFY(QDir().mkpath(RunNotes::pathFor(run.path())));
        QString error;
        QCOMPARE(RunNotes::load(run.path(), &error), QString());
        QVERIFY(error.contains(QDir::toNativeSeparators(RunNotes::pathFor(run.path()))));
        error.clear();
        QVERIFY(!RunNotes::save(run.path(), QStringLiteral("text"), &error));
        QVERIFY(!error.isEmpty());
        QDir(RunNotes::pathFor(run.path())).removeRecursively();
    }

    void panelSavesPerFolder()
    {
        QTemporaryDir first;
        QTemporaryDir second;
        NotesPanel panel;
        panel.show();
        auto* editor = panel.findChild<QPlainTextEdit*>();
        QVERIFY(editor);
        QVERIFY(!editor->isEnabled()); // no folder: nothing to write about
        panel.setFolder(first.path());
        QVERIFY(editor->isEnabled());
        editor->setFocus();
        QTest::keyClicks(editor, QStringLiteral("first run"));
        QCOMPARE(panel.text(), QStringLiteral("first run"));
        // Another folder: the first one's notes are saved, the second starts empty.
        panel.setFolder(second.path());
        QCOMPARE(RunNotes::load(first.path()), QStringLiteral("first run"));
        QCOMPARE(panel.text(), QString());
        QTest::keyClicks(editor, QStringLiteral("second"));
        // Saved a moment after typing stops, without switching folders.
        QTRY_COMPARE_WITH_TIMEOUT(RunNotes::load(second.path()), QStringLiteral("second"),
                                  NotesPanel::kSaveDelayMs * 5);
        panel.setFolder(first.path());
        QCOMPARE(panel.text(), QStringLiteral("first run"));
        QCOMPARE(listing(first.path()), QStringList());
        QCOMPARE(listing(second.path()), QStringList());
    }

    void previewRendersMarkdown()
    {
        QTemporaryDir run;
        NotesPanel panel;
        panel.setFolder(run.path());
        panel.setText(QStringLiteral("# Findings\n\n- **loss** diverges\n- see `step 40`\n"));
        panel.setPreview(true);
        QVERIFY(panel.isPreview());
        const QString rendered = panel.previewPlainText();
        QVERIFY2(rendered.contains(QStringLiteral("Findings")), qPrintable(rendered));
        QVERIFY(rendered.contains(QStringLiteral("loss diverges")));
        QVERIFY(!rendered.contains(QLatin1Char('#')));
        QVERIFY(!rendered.contains(QStringLiteral("**")));
        panel.setPreview(false);
        QCOMPARE(panel.text(), QStringLiteral("# Findings\n\n- **loss** diverges\n- see `step 40`\n"));
    }
};

QTEST_MAIN(TestRunNotes)
#include "tst_runnotes.moc"
