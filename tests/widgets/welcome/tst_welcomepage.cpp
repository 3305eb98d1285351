#include "widgets/welcome/welcomepage.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using runlens::widgets::welcome::RecentEntry;
using runlens::widgets::welcome::WelcomePage;

class TestWelcomePage : public QObject
{
    Q_OBJECT
private slots:
    void buttonsEmitTheirSignals();
    void recentListShowsPathsAndTimes();
    void removingAnEntryTellsTheOwner();
    void activatingAnEntryAsksToOpenIt();
    void emptyListSaysWhatWillAppear();
    void supportedFormatsNameTheExtensions();
    void timesAreRelativeToToday();

private:
    static QList<RecentEntry> entries(const QTemporaryDir& dir);
};

QList<RecentEntry> TestWelcomePage::entries(const QTemporaryDir& dir)
{
    QDir(dir.path()).mkpath(QStringLiteral("resnet50"));
    QDir(dir.path()).mkpath(QStringLiteral("bert-large"));
    const QDateTime now = QDateTime::currentDateTime();
    return { { dir.filePath(QStringLiteral("resnet50")), now },
             { dir.filePath(QStringLiteral("bert-large")), now.addDays(-1) },
             { dir.filePath(QStringLiteral("gone")), QDateTime() } };
}

void TestWelcomePage::buttonsEmitTheirSignals()
{
    WelcomePage page;
    QSignalSpy folder(&page, &WelcomePage::openFolderRequested);
    QSignalSpy file(&page, &WelcomePage::openFileRequested);
    QSignalSpy demo(&page, &WelcomePage::demoRequested);
    auto* folderButton = page.findChild<QPushButton*>(QStringLiteral("openFolderButton"));
    auto* fileButton = page.findChild<QPushButton*>(QStringLiteral("openFileButton"));
    auto* demoButton = page.findChild<QPushButton*>(QStringLiteral("demoButton"));
    QVERIFY(folderButton && fileButton && demoButton);
    QTest::mouseClick(folderButton, Qt::LeftButton);
    QTest::mouseClick(demoButton, Qt::LeftButton);
    QTest::mouseClick(demoButton, Qt::LeftButton);
    QCOMPARE(folder.count(), 1);
    QCOMPARE(file.count(), 0);
    QCOMPARE(demo.count(), 2);
    QTest::mouseClick(fileButton, Qt::LeftButton);
    QCOMPARE(file.count(), 1);
    for (auto* button : { folderButton, fileButton, demoButton })
        QVERIFY2(!button->toolTip().isEmpty(), qPrintable(button->text()));
}

void TestWelcomePage::recentListShowsPathsAndTimes()
{
    QTemporaryDir dir;
    WelcomePage page;
    page.setRecent(entries(dir));
    page.show();
    auto* list = page.findChild<QListWidget*>(QStringLiteral("recentList"));
    QVERIFY(list);
    QCOMPARE(list->count(), 3);
    QVERIFY(list->isVisible());
    // Most recent first, as given; each row names the folder and where it is.
    QCOMPARE(list->item(0)->data(Qt::UserRole).toString(), dir.filePath(QStringLiteral("resnet50")));
    QVERIFY(list->item(0)->text().startsWith(QStringLiteral("resnet50\n")));
    QVERIFY(list->item(0)->text().contains(QDir::toNativeSeparators(dir.path())));
    QVERIFY(list->item(0)->text().contains(QStringLiteral("today")));
    QVERIFY(list->item(1)->text().contains(QStringLiteral("yesterday")));
    // A folder that was deleted since is still listed (it may come back) but says so and cannot be clicked.
    QVERIFY(list->item(2)->text().contains(QStringLiteral("no longer there")));
    QVERIFY(!list->item(0)->text().contains(QStringLiteral("no longer there")));
    const auto links = page.findChildren<QLabel*>(QStringLiteral("recentLink"));
    QCOMPARE(links.size(), 3);
    int enabled = 0;
    for (QLabel* link : links)
        enabled += link->isEnabled() ? 1 : 0;
    QCOMPARE(enabled, 2);
}

void TestWelcomePage::removingAnEntryTellsTheOwner()
{
    QTemporaryDir dir;
    WelcomePage page;
    page.setRecent(entries(dir));
    QSignalSpy removed(&page, &WelcomePage::recentRemoved);
    auto* list = page.findChild<QListWidget*>(QStringLiteral("recentList"));
    auto* button = list->itemWidget(list->item(1))->findChild<QToolButton*>(QStringLiteral("removeRecent"));
    QVERIFY(button);
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_COMPARE(removed.count(), 1);
    QCOMPARE(removed.first().first().toString(), dir.filePath(QStringLiteral("bert-large")));
    QCOMPARE(list->count(), 2);
    QCOMPARE(page.recent().size(), 2);
    for (const RecentEntry& entry : page.recent())
        QVERIFY(entry.path != dir.filePath(QStringLiteral("bert-large")));
    QCOMPARE(list->item(1)->data(Qt::UserRole).toString(), dir.filePath(QStringLiteral("gone")));
}

void TestWelcomePage::activatingAnEntryAsksToOpenIt()
{
    QTemporaryDir dir;
    WelcomePage page;
    page.setRecent(entries(dir));
    QSignalSpy activated(&page, &WelcomePage::recentActivated);
    auto* list = page.findChild<QListWidget*>(QStringLiteral("recentList"));
    auto* link = list->itemWidget(list->item(1))->findChild<QLabel*>(QStringLiteral("recentLink"));
    QVERIFY(link);
    emit link->linkActivated(QStringLiteral("open"));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toString(), dir.filePath(QStringLiteral("bert-large")));
    emit list->itemActivated(list->item(0));
    QCOMPARE(activated.count(), 2);
    QCOMPARE(activated.last().first().toString(), dir.filePath(QStringLiteral("resnet50")));
}

void TestWelcomePage::emptyListSaysWhatWillAppear()
{
    WelcomePage page;
    page.show();
    auto* list = page.findChild<QListWidget*>(QStringLiteral("recentList"));
    QCOMPARE(list->count(), 0);
    QVERIFY(!list->isVisible());
    QTemporaryDir dir;
    page.setRecent(entries(dir));
    QVERIFY(list->isVisible());
    page.setRecent({});
    QVERIFY(!list->isVisible());
}

void TestWelcomePage::supportedFormatsNameTheExtensions()
{
    const QStringList lines = WelcomePage::supportedFormats();
    QCOMPARE(lines.size(), 6);
    const QString all = lines.join(QLatin1Char('\n'));
    for (const char* needle : { "tfevents", ".ir", ".dot", ".onnx", ".pbtxt", ".npy", ".npz", ".safetensors",
                                ".json.gz", "ASCEND_PROFILER_OUTPUT", "export_memory_timeline" })
        QVERIFY2(all.contains(QLatin1String(needle)), needle);
    WelcomePage page;
    auto* label = page.findChild<QLabel*>(QStringLiteral("supportedFormats"));
    QVERIFY(label);
    QCOMPARE(label->text().count(QStringLiteral("<li")), 6);
}

void TestWelcomePage::timesAreRelativeToToday()
{
    const QDateTime now(QDate(2026, 3, 10), QTime(15, 0));
    const QString clock = QStringLiteral("09:05");
    QCOMPARE(WelcomePage::describeTime(QDateTime(QDate(2026, 3, 10), QTime(9, 5)), now),
             QStringLiteral("today ") + clock);
    QCOMPARE(WelcomePage::describeTime(QDateTime(QDate(2026, 3, 9), QTime(9, 5)), now),
             QStringLiteral("yesterday ") + clock);
    QCOMPARE(WelcomePage::describeTime(QDateTime(QDate(2026, 1, 2), QTime(9, 5)), now),
             QLocale().toString(QDate(2026, 1, 2), QLocale::ShortFormat));
    QVERIFY(WelcomePage::describeTime(QDateTime(), now).isEmpty());
}

QTEST_MAIN(TestWelcomePage)
#include "tst_welcomepage.moc"
