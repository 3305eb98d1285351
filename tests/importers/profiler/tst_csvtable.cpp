#include "importers/profiler/csvtable.h"

#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using runlens::importers::profiler::CsvTable;
using runlens::models::Severity;

class TestCsvTable : public QObject
{
    Q_OBJECT

private slots:
    void plainTable();
    void quotedFields();
    void crlfAndBom();
    void tabSeparated();
    void headerLookup();
    void typedGetters();
    void raggedRowsAreReported();
    void unterminatedQuoteKeepsLaterRows();
    void strayTextAfterQuote();
    void emptyAndMissingFiles();
    void blankLinesAndTrailingDelimiter();
    void frameworkRawSampleMatchesPython();
};

void TestCsvTable::plainTable()
{
    const CsvTable table = CsvTable::parse("kernel_type,total_time,execution_frequency,percent\n"
                                           "GetNext,0.00015,3,0.00\n"
                                           "Conv2D,1.5,12,99.5\n",
                                           QStringLiteral("t.csv"));
    QVERIFY(table.hasHeader());
    QCOMPARE(table.columnCount(), 4);
    QCOMPARE(table.rowCount(), 2);
    QCOMPARE(table.text(0, 0), QStringLiteral("GetNext"));
    QCOMPARE(table.text(1, 3), QStringLiteral("99.5"));
    QCOMPARE(table.lineOf(0), 2);
    QCOMPARE(table.lineOf(1), 3);
    QVERIFY(table.diagnostics().isEmpty());
}

void TestCsvTable::quotedFields()
{
    // Embedded delimiter, doubled quotes, a JSON object, and a newline inside quotes.
    const QByteArray data = "name,info,n\n"
                            "\"a,b\",\"{\"\"shape\"\": [1, 2], \"\"format\"\": \"\"NCHW\"\"}\",1\n"
                            "\"two\nlines\",\"say \"\"hi\"\"\",2\n"
                            "  \"padded\"  ,x,3\n";
    const CsvTable table = CsvTable::parse(data, QStringLiteral("q.csv"));
    QCOMPARE(table.rowCount(), 3);
    QCOMPARE(table.text(0, 0), QStringLiteral("a,b"));
    const QJsonDocument json = QJsonDocument::fromJson(table.bytes(0, 1).toByteArray());
    QVERIFY(json.isObject());
    QCOMPARE(json.object().value(QStringLiteral("format")).toString(), QStringLiteral("NCHW"));
    QCOMPARE(table.toInt64(0, 2), 1);
    QCOMPARE(table.text(1, 0), QStringLiteral("two\nlines"));
    QCOMPARE(table.text(1, 1), QStringLiteral("say \"hi\""));
    QCOMPARE(table.text(2, 0), QStringLiteral("padded"));
    // The row after the two-line field starts on line 5.
    QCOMPARE(table.lineOf(2), 5);
    QVERIFY(table.diagnostics().isEmpty());
}

void TestCsvTable::crlfAndBom()
{
    const CsvTable table
        = CsvTable::parse("\xEF\xBB\xBFStep,Computing\r\n1,10.5\r\n\"2\",11\r\n", QStringLiteral("b.csv"));
    QCOMPARE(table.header(), QStringList({ QStringLiteral("Step"), QStringLiteral("Computing") }));
    QCOMPARE(table.column("step"), 0);
    QCOMPARE(table.rowCount(), 2);
    QCOMPARE(table.text(0, 1), QStringLiteral("10.5"));
    QCOMPARE(table.toInt64(1, 0), 2);
    QCOMPARE(table.toDouble(1, 1), 11.0);
}

void TestCsvTable::tabSeparated()
{
    const CsvTable table = CsvTable::parse("a\tb,c\td\n1\t2,3\t\n", QStringLiteral("t.tsv"));
    QCOMPARE(table.delimiter(), '\t');
    QCOMPARE(table.columnCount(), 3);
    QCOMPARE(table.text(0, 1), QStringLiteral("2,3"));
    QCOMPARE(table.text(0, 2), QString());
    QVERIFY(table.isEmpty(0, 2));
}

void TestCsvTable::headerLookup()
{
    const CsvTable table = CsvTable::parse(" Kernel_Type , Communication(Not Overlapped),Task Duration(us)\n"
                                           "x,1,2\n",
                                           QStringLiteral("h.csv"));
    QCOMPARE(table.column("kernel_type"), 0);
    QCOMPARE(table.column({ "op_type", "KERNEL_TYPE" }), 0);
    QCOMPARE(table.column("communication (not overlapped)"), 1);
    QCOMPARE(table.column({ "task_duration", "task duration(us)" }), 2);
    QCOMPARE(table.column("missing"), -1);
    QCOMPARE(table.column({ "also_missing", "missing" }), -1);
    QCOMPARE(table.column(QStringList { QStringLiteral("nope"), QStringLiteral("Kernel_type") }), 0);
    QCOMPARE(table.header().at(0), QStringLiteral("Kernel_Type"));
}

void TestCsvTable::typedGetters()
{
    const CsvTable table = CsvTable::parse("a,b,c,d,e,f,g\n"
                                           "12, 3.5 ,-,,1e-05,12.0,nan\n"
                                           "+7,abc,9223372036854775807,1.5x,-2,1e999,inf\n",
                                           QStringLiteral("n.csv"));
    bool ok = false;
    QCOMPARE(table.toInt64(0, 0, &ok), 12);
    QVERIFY(ok);
    QCOMPARE(table.toDouble(0, 1, &ok), 3.5);
    QVERIFY(ok);
    table.toInt64(0, 1, &ok);
    QVERIFY(!ok); // 3.5 is not an integer
    table.toDouble(0, 2, &ok);
    QVERIFY(!ok); // "-" is the average row marker, not a number
    table.toDouble(0, 3, &ok);
    QVERIFY(!ok); // empty
    QCOMPARE(table.toDouble(0, 4, &ok), 1e-05);
    QVERIFY(ok);
    QCOMPARE(table.toInt64(0, 5, &ok), 12);
    QVERIFY(ok);
    QVERIFY(std::isnan(table.toDouble(0, 6, &ok)));
    QVERIFY(ok);
    QCOMPARE(table.toInt64(1, 0), 7);
    QVERIFY(!table.doubleAt(1, 1).has_value());
    QCOMPARE(table.int64At(1, 2).value(), std::numeric_limits<qint64>::max());
    QVERIFY(!table.doubleAt(1, 3).has_value());
    QCOMPARE(table.toInt64(1, 4), -2);
    QVERIFY(std::isinf(table.toDouble(1, 5, &ok)));
    QVERIFY(ok);
    QVERIFY(std::isinf(table.doubleAt(1, 6).value()));
    // Out of range rows and columns are failures, not crashes.
    table.toDouble(5, 0, &ok);
    QVERIFY(!ok);
    table.toDouble(0, 42, &ok);
    QVERIFY(!ok);
    QCOMPARE(table.text(-1, 0), QString());

    const runlens::models::Diagnostic cell = table.cellDiagnostic(1, 1, QStringLiteral("not a number"));
    QCOMPARE(cell.file, QStringLiteral("n.csv"));
    QCOMPARE(cell.line, 3);
    QVERIFY(cell.message.contains(QStringLiteral("\"b\"")));
    QVERIFY(cell.toString().contains(QStringLiteral("n.csv")));
}

void TestCsvTable::raggedRowsAreReported()
{
    const CsvTable table = CsvTable::parse("a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12,,\n", QStringLiteral("r.csv"));
    QCOMPARE(table.rowCount(), 4);
    QCOMPARE(table.fieldCount(1), 2);
    QCOMPARE(table.text(1, 2), QString());
    QCOMPARE(table.text(2, 3), QStringLiteral("9"));
    // Short row (line 3) and long row (line 4) reported; trailing empty cells (line 5) are not.
    QCOMPARE(table.diagnostics().size(), 2);
    QCOMPARE(table.diagnostics().at(0).line, 3);
    QCOMPARE(table.diagnostics().at(0).file, QStringLiteral("r.csv"));
    QCOMPARE(table.diagnostics().at(1).line, 4);

    // Many broken rows: a bounded list plus a count of the rest.
    QByteArray many = "a,b\n";
    for (int i = 0; i < 100; ++i)
        many += "1\n";
    const CsvTable flooded = CsvTable::parse(many, QStringLiteral("m.csv"));
    QCOMPARE(flooded.rowCount(), 100);
    QVERIFY(flooded.diagnostics().size() < 30);
    QVERIFY(flooded.diagnostics().last().message.contains(QStringLiteral("80")));
}

void TestCsvTable::unterminatedQuoteKeepsLaterRows()
{
    const CsvTable table = CsvTable::parse("a,b\n1,\"open\n2,x\n3,y\n", QStringLiteral("u.csv"));
    QCOMPARE(table.rowCount(), 3);
    QCOMPARE(table.text(0, 1), QStringLiteral("\"open"));
    QCOMPARE(table.text(1, 0), QStringLiteral("2"));
    QCOMPARE(table.text(2, 1), QStringLiteral("y"));
    QCOMPARE(table.lineOf(2), 4);
    QCOMPARE(table.diagnostics().size(), 1);
    QCOMPARE(table.diagnostics().first().line, 2);
}

void TestCsvTable::strayTextAfterQuote()
{
    const CsvTable table = CsvTable::parse("a,b\n\"x\"y,2\n", QStringLiteral("s.csv"));
    QCOMPARE(table.text(0, 0), QStringLiteral("xy"));
    QCOMPARE(table.toInt64(0, 1), 2);
    QCOMPARE(table.diagnostics().size(), 1);
    QCOMPARE(table.diagnostics().first().line, 2);
}

void TestCsvTable::emptyAndMissingFiles()
{
    const CsvTable empty = CsvTable::parse("", QStringLiteral("e.csv"));
    QVERIFY(!empty.hasHeader());
    QCOMPARE(empty.rowCount(), 0);
    QCOMPARE(empty.diagnostics().size(), 1);
    QCOMPARE(empty.diagnostics().first().severity, Severity::Error);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("absent.csv"));
    const CsvTable missing = CsvTable::readFile(path);
    QCOMPARE(missing.rowCount(), 0);
    QCOMPARE(missing.fieldCount(0), 0);
    QCOMPARE(missing.diagnostics().size(), 1);
    QCOMPARE(missing.diagnostics().first().file, path);

    CsvTable::Options small;
    small.maxBytes = 4;
    const CsvTable tooBig = CsvTable::parse("a,b\n1,2\n", QStringLiteral("big.csv"), small);
    QCOMPARE(tooBig.rowCount(), 0);
    QCOMPARE(tooBig.diagnostics().first().severity, Severity::Error);
}

void TestCsvTable::blankLinesAndTrailingDelimiter()
{
    // The step trace writer ends its header with a delimiter; blank lines are not rows.
    const CsvTable table = CsvTable::parse("\n\nstep_num,total,\n\n1,5,\n   \n-,5,", QStringLiteral("st.csv"));
    QCOMPARE(table.columnCount(), 2);
    QCOMPARE(table.rowCount(), 2);
    QCOMPARE(table.lineOf(0), 5);
    QCOMPARE(table.text(1, 0), QStringLiteral("-"));
    QVERIFY(table.diagnostics().isEmpty());
}

void TestCsvTable::frameworkRawSampleMatchesPython()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/profiler/mindspore/run_1_profiler/framework_raw_1.csv");
    const CsvTable table = CsvTable::readFile(path);
    QVERIFY(table.diagnostics().isEmpty());

    // Python's csv module is the independent reader: rows, and the sum of the JSON keys of op_info.
    RUNLENS_PYTHON_ORACLE(python,
                          { QStringLiteral("-c"),
                            QStringLiteral("import csv,json,sys\n"
                                           "rows=list(csv.DictReader(open(sys.argv[1],newline='')))\n"
                                           "print(len(rows), sum(len(json.loads(r['op_info'])) for r in rows),"
                                           " sum(int(r['task_id']) for r in rows))"),
                            path });
    const QStringList expected = python.simplified().split(QLatin1Char(' '));
    QCOMPARE(expected.size(), 3);

    const int opInfo = table.column("op_info");
    const int taskId = table.column("task_id");
    QVERIFY(opInfo >= 0 && taskId >= 0);
    QCOMPARE(table.rowCount(), expected.at(0).toInt());
    qint64 keys = 0;
    qint64 tasks = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
        const QJsonDocument json = QJsonDocument::fromJson(table.bytes(row, opInfo).toByteArray());
        QVERIFY2(json.isObject(), qPrintable(QStringLiteral("row %1").arg(row)));
        keys += json.object().size();
        tasks += table.toInt64(row, taskId);
    }
    QCOMPARE(keys, expected.at(1).toLongLong());
    QCOMPARE(tasks, expected.at(2).toLongLong());
}

QTEST_GUILESS_MAIN(TestCsvTable)
#include "tst_csvtable.moc"
