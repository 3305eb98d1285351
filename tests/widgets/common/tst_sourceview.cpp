#include "widgets/common/sourceview.h"

#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest>

using namespace runlens;
using namespace runlens::widgets;

class TstSourceView : public QObject
{
    Q_OBJECT

private slots:
    void showsTheLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.py"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 1; i <= 500; ++i)
            file.write(QStringLiteral("line %1 = conv%1(x)\n").arg(i).toUtf8());
        file.close();

        SourceView view;
        view.resize(600, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.openFile(path, 321));
        QCOMPARE(view.line(), 321);
        QCOMPARE(view.textCursor().blockNumber(), 320);
        QCOMPARE(view.extraSelections().size(), 1);
        QVERIFY(view.textCursor().block().text().startsWith(QLatin1String("line 321 ")));
        // Scrolled so that the line is on screen, far from the top of the file.
        const int top = view.cursorForPosition(QPoint(0, 0)).blockNumber();
        QVERIFY2(top > 250 && top <= 320, qPrintable(QString::number(top)));
        QVERIFY(view.gutterWidth() > view.fontMetrics().horizontalAdvance(QStringLiteral("99")));
        QVERIFY(view.isReadOnly());

        // A line past the end highlights nothing; the file still shows.
        QVERIFY(view.openFile(path, 9999));
        QCOMPARE(view.line(), 0);
        QVERIFY(view.extraSelections().isEmpty());
        QCOMPARE(view.blockCount(), 501);
    }

    void missingFileSaysSo()
    {
        SourceView view;
        const QString path = QStringLiteral("/nonexistent/train.py");
        QVERIFY(!view.openFile(path, 3));
        QVERIFY(view.toPlainText().contains(path));
        QCOMPARE(view.line(), 0);
    }
};

QTEST_MAIN(TstSourceView)
#include "tst_sourceview.moc"
