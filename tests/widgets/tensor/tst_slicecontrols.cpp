#include "widgets/tensor/slicecontrols.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

#include <cstring>

using namespace runlens;
using runlens::widgets::tensor::SliceControls;

namespace {

/// A C-ordered float32 tensor whose element (i, j, k, l) is 1000 i + 100 j + 10 k + l (fewer dims alike).
models::tensor::Tensor patterned(const std::vector<std::int64_t>& shape)
{
    std::int64_t count = 1;
    for (const std::int64_t n : shape)
        count *= n;
    std::vector<std::byte> bytes(std::size_t(count) * 4);
    std::vector<std::int64_t> index(shape.size(), 0);
    for (std::int64_t n = 0; n < count; ++n) {
        float value = 0;
        std::int64_t rest = n;
        for (int d = int(shape.size()) - 1; d >= 0; --d) {
            index[d] = rest % shape[d];
            rest /= shape[d];
        }
        for (std::size_t d = 0; d < shape.size(); ++d)
            value = value * 10 + float(index[d]);
        std::memcpy(bytes.data() + n * 4, &value, 4);
    }
    models::tensor::Tensor t;
    t.name = QStringLiteral("pattern");
    t.dtype = models::tensor::DType::Float32;
    t.shape = shape;
    t.strides = models::tensor::Tensor::contiguousStrides(shape, 4);
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return t;
}

double at(const models::tensor::Tensor& view, std::int64_t r, std::int64_t c = -1)
{
    if (c < 0)
        return view.value({ r });
    return view.value({ r, c });
}

} // namespace

class TestSliceControls : public QObject
{
    Q_OBJECT
private slots:
    void defaultsToLastTwoDimensions();
    void indexSpinBoxMovesTheSlice();
    void rowComboChangesTheShownDimension();
    void transposedChoiceSwapsStrides();
    void columnsNoneGivesVector();
    void typedExpressionMovesControls();
    void rangeExpressionDeterminesViewOnly();
    void invalidExpressionKeepsView_data();
    void invalidExpressionKeepsView();
    void editAppliesAfterPause();
    void ellipsisExpression();
    void keepSliceAcrossSameShape();
    void stateRestores();
    void vectorAndScalar();
};

void TestSliceControls::defaultsToLastTwoDimensions()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    QCOMPARE(controls.rowDimension(), 2);
    QCOMPARE(controls.columnDimension(), 3);
    QCOMPARE(controls.expression(), QStringLiteral("[0, 0, :, :]"));
    QCOMPARE(controls.expressionEdit()->text(), controls.expression());
    QVERIFY(controls.view());
    QCOMPARE(controls.view()->shape, (std::vector<std::int64_t> { 4, 5 }));
    QCOMPARE(at(*controls.view(), 3, 4), 34.0);
    QVERIFY(!controls.isTransposed());
    QVERIFY(controls.indexSpinBox(0)->isVisibleTo(&controls));
    QVERIFY(!controls.indexSpinBox(2)->isVisibleTo(&controls));
}

void TestSliceControls::indexSpinBoxMovesTheSlice()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    controls.show();
    QSignalSpy changed(&controls, &SliceControls::sliceChanged);
    QTest::keyClick(controls.indexSpinBox(1), Qt::Key_Up);
    QTest::keyClick(controls.indexSpinBox(1), Qt::Key_Up);
    QCOMPARE(controls.expression(), QStringLiteral("[0, 2, :, :]"));
    QCOMPARE(changed.size(), 2);
    QCOMPARE(changed.last().first().toString(), QStringLiteral("[0, 2, :, :]"));
    QCOMPARE(controls.indexSlider(1)->value(), 2);
    QCOMPARE(at(*controls.view(), 1, 3), 213.0);

    // The slider moves the spin box and the slice too.
    controls.indexSlider(0)->setValue(1);
    QCOMPARE(controls.indexSpinBox(0)->value(), 1);
    QCOMPARE(controls.expression(), QStringLiteral("[1, 2, :, :]"));
    QCOMPARE(at(*controls.view(), 0, 0), 1200.0);
}

void TestSliceControls::rowComboChangesTheShownDimension()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    controls.show();
    controls.indexSpinBox(1)->setValue(1);
    // Rows: dim 2 -> dim 0, two steps up in the combo.
    QTest::keyClick(controls.rowCombo(), Qt::Key_Up);
    QCOMPARE(controls.rowDimension(), 1);
    QTest::keyClick(controls.rowCombo(), Qt::Key_Up);
    QCOMPARE(controls.rowDimension(), 0);
    QCOMPARE(controls.columnDimension(), 3);
    QCOMPARE(controls.expression(), QStringLiteral("[:, 1, 0, :]"));
    const models::tensor::Tensor view = *controls.view();
    QCOMPARE(view.shape, (std::vector<std::int64_t> { 2, 5 }));
    QCOMPARE(at(view, 1, 4), 1104.0);
    QCOMPARE(at(view, 0, 2), 102.0);
    QVERIFY(controls.indexSpinBox(2)->isVisibleTo(&controls));
    QVERIFY(!controls.indexSpinBox(0)->isVisibleTo(&controls));
}

void TestSliceControls::transposedChoiceSwapsStrides()
{
    SliceControls controls;
    const models::tensor::Tensor t = patterned({ 2, 3, 4, 5 });
    controls.setTensor(t);
    controls.show();
    // Rows dim 3 (currently the columns): rows and columns swap.
    controls.rowCombo()->setFocus();
    QTest::keyClick(controls.rowCombo(), Qt::Key_Down);
    QCOMPARE(controls.rowDimension(), 3);
    QCOMPARE(controls.columnDimension(), 2);
    QVERIFY(controls.isTransposed());
    QCOMPARE(controls.expression(), QStringLiteral("[0, 0, :, :]"));
    const models::tensor::Tensor view = *controls.view();
    QCOMPARE(view.shape, (std::vector<std::int64_t> { 5, 4 }));
    QCOMPARE(view.strides, (std::vector<std::int64_t> { 4, 20 }));
    QCOMPARE(view.data.get(), t.data.get()); // a view, not a copy
    QCOMPARE(at(view, 4, 1), 14.0);
    QCOMPARE(controls.viewDimensions(), (QList<int> { 3, 2 }));

    // Columns dim 1 while rows stay dim 3: rows after columns still, dim 2 gets an index.
    controls.setColumnDimension(1);
    QCOMPARE(controls.expression(), QStringLiteral("[0, :, 0, :]"));
    QVERIFY(controls.isTransposed());
    QCOMPARE(controls.view()->shape, (std::vector<std::int64_t> { 5, 3 }));
    QCOMPARE(at(*controls.view(), 2, 1), 102.0);
}

void TestSliceControls::columnsNoneGivesVector()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    controls.show();
    controls.columnCombo()->setFocus();
    QTest::keyClick(controls.columnCombo(), Qt::Key_Home);
    QCOMPARE(controls.columnDimension(), -1);
    QCOMPARE(controls.expression(), QStringLiteral("[0, 0, :, 0]"));
    QCOMPARE(controls.view()->shape, (std::vector<std::int64_t> { 4 }));
    QCOMPARE(at(*controls.view(), 3), 30.0);
    QVERIFY(controls.indexSpinBox(3)->isVisibleTo(&controls));

    // Columns onto the rows' dimension: rows move to another dimension.
    controls.setColumnDimension(2);
    QCOMPARE(controls.columnDimension(), 2);
    QVERIFY(controls.rowDimension() != 2);
    QCOMPARE(controls.view()->rank(), 2);
}

void TestSliceControls::typedExpressionMovesControls()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    controls.show();
    QSignalSpy changed(&controls, &SliceControls::sliceChanged);
    controls.expressionEdit()->clear();
    QTest::keyClicks(controls.expressionEdit(), QStringLiteral("[1, -1, :, 2]"));
    QTest::keyClick(controls.expressionEdit(), Qt::Key_Return);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(controls.expression(), QStringLiteral("[1, -1, :, 2]"));
    QCOMPARE(controls.expressionEdit()->text(), QStringLiteral("[1, -1, :, 2]"));
    QCOMPARE(controls.rowDimension(), 2);
    QCOMPARE(controls.columnDimension(), -1);
    QCOMPARE(controls.rowCombo()->currentData().toInt(), 2);
    QCOMPARE(controls.columnCombo()->currentData().toInt(), -1);
    QCOMPARE(controls.indexSpinBox(0)->value(), 1);
    QCOMPARE(controls.indexSpinBox(1)->value(), 2);
    QCOMPARE(controls.indexSpinBox(3)->value(), 2);
    QCOMPARE(controls.view()->shape, (std::vector<std::int64_t> { 4 }));
    QCOMPARE(at(*controls.view(), 3), 1232.0);
    QVERIFY(controls.errorText().isEmpty());

    // Then the controls rewrite the text.
    QTest::keyClick(controls.indexSpinBox(0), Qt::Key_Down);
    QCOMPARE(controls.expression(), QStringLiteral("[0, 2, :, 2]"));
    QCOMPARE(at(*controls.view(), 1), 212.0);
}

void TestSliceControls::rangeExpressionDeterminesViewOnly()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    QVERIFY(controls.setExpression(QStringLiteral("[1, 2, 1:4, ::-2]")));
    const models::tensor::Tensor view = *controls.view();
    QCOMPARE(view.shape, (std::vector<std::int64_t> { 3, 3 }));
    // Rows k = 1, 2, 3; columns l = 4, 2, 0.
    QCOMPARE(at(view, 0, 0), 1214.0);
    QCOMPARE(at(view, 2, 2), 1230.0);
    QCOMPARE(at(view, 1, 1), 1222.0);
    QCOMPARE(controls.viewOrigins().size(), 2);
    QCOMPARE(controls.viewOrigins()[0], (std::pair<std::int64_t, std::int64_t>(1, 1)));
    QCOMPARE(controls.viewOrigins()[1], (std::pair<std::int64_t, std::int64_t>(4, -2)));
    QCOMPARE(controls.expressionEdit()->text(), QStringLiteral("[1, 2, 1:4, ::-2]"));
}

void TestSliceControls::invalidExpressionKeepsView_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("message");
    QTest::newRow("out of range") << QStringLiteral("[0, 3, :, :]") << QStringLiteral("out of range");
    QTest::newRow("syntax") << QStringLiteral("[0, x]") << QStringLiteral("Column 5");
    QTest::newRow("unclosed") << QStringLiteral("[0, 1") << QStringLiteral("not closed");
    QTest::newRow("four dims") << QStringLiteral("[...]") << QStringLiteral("pick indices for 2 more dimensions");
    QTest::newRow("three dims") << QStringLiteral("[0]") << QStringLiteral("pick indices for 1 more dimensions");
    QTest::newRow("too many") << QStringLiteral("[0, 0, 0, 0, 0]") << QStringLiteral("too many indices");
}

void TestSliceControls::invalidExpressionKeepsView()
{
    QFETCH(QString, expression);
    QFETCH(QString, message);
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    controls.show();
    controls.indexSpinBox(1)->setValue(1);
    QSignalSpy changed(&controls, &SliceControls::sliceChanged);
    QVERIFY(!controls.setExpression(expression));
    QCOMPARE(changed.size(), 0);
    QVERIFY2(controls.errorText().contains(message), qPrintable(controls.errorText()));
    QVERIFY(controls.errorLabel()->isVisibleTo(&controls));
    QCOMPARE(controls.expression(), QStringLiteral("[0, 1, :, :]"));
    QCOMPARE(at(*controls.view(), 2, 3), 123.0);
    QCOMPARE(controls.expressionEdit()->text(), expression); // the user's text stays for correction

    // A valid expression clears the message.
    QVERIFY(controls.setExpression(QStringLiteral("[1, 1, :, :]")));
    QVERIFY(controls.errorText().isEmpty());
    QVERIFY(!controls.errorLabel()->isVisibleTo(&controls));
}

void TestSliceControls::editAppliesAfterPause()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    controls.show();
    QSignalSpy changed(&controls, &SliceControls::sliceChanged);
    controls.expressionEdit()->selectAll();
    QTest::keyClicks(controls.expressionEdit(), QStringLiteral("[1, 1, :, :]"));
    QCOMPARE(changed.size(), 0); // not while typing
    QTRY_COMPARE(changed.size(), 1);
    QCOMPARE(controls.expression(), QStringLiteral("[1, 1, :, :]"));
    QCOMPARE(controls.indexSpinBox(0)->value(), 1);
}

void TestSliceControls::ellipsisExpression()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    QVERIFY(controls.setExpression(QStringLiteral("[1, ..., 2, 3]")));
    QCOMPARE(controls.rowDimension(), 1);
    QCOMPARE(controls.columnDimension(), -1);
    QCOMPARE(controls.view()->shape, (std::vector<std::int64_t> { 3 }));
    QCOMPARE(at(*controls.view(), 2), 1223.0);
    QVERIFY(controls.setExpression(QStringLiteral("1, ..., 0, :")));
    QCOMPARE(controls.view()->shape, (std::vector<std::int64_t> { 3, 5 }));
    QCOMPARE(controls.rowDimension(), 1);
    QCOMPARE(controls.columnDimension(), 3);
    QCOMPARE(at(*controls.view(), 2, 4), 1204.0);
}

void TestSliceControls::keepSliceAcrossSameShape()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    QVERIFY(controls.setExpression(QStringLiteral("[1, 2, :, :]")));
    QSignalSpy changed(&controls, &SliceControls::sliceChanged);
    controls.setTensor(patterned({ 2, 3, 4, 5 }), true);
    QCOMPARE(controls.expression(), QStringLiteral("[1, 2, :, :]"));
    QCOMPARE(changed.size(), 0);
    controls.setTensor(patterned({ 3, 4 }), true);
    QCOMPARE(controls.expression(), QStringLiteral("[:, :]"));
    QCOMPARE(controls.view()->shape, (std::vector<std::int64_t> { 3, 4 }));
    QCOMPARE(at(*controls.view(), 2, 3), 23.0);
}

void TestSliceControls::stateRestores()
{
    SliceControls controls;
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    controls.setRowDimension(3);
    controls.setIndex(0, 1);
    const SliceControls::State state = controls.state();
    QVERIFY(controls.isTransposed());
    controls.setTensor(patterned({ 6 }));
    QCOMPARE(controls.expression(), QStringLiteral("[:]"));
    controls.setTensor(patterned({ 2, 3, 4, 5 }));
    QCOMPARE(controls.expression(), QStringLiteral("[0, 0, :, :]"));
    controls.setState(state);
    QCOMPARE(controls.expression(), QStringLiteral("[1, 0, :, :]"));
    QVERIFY(controls.isTransposed());
    QCOMPARE(at(*controls.view(), 4, 3), 1034.0);
    QCOMPARE(controls.expressionEdit()->text(), controls.expression());
}

void TestSliceControls::vectorAndScalar()
{
    SliceControls controls;
    controls.setTensor(patterned({ 7 }));
    QCOMPARE(controls.rowDimension(), 0);
    QVERIFY(!controls.columnCombo()->isEnabled());
    QCOMPARE(at(*controls.view(), 6), 6.0);
    QVERIFY(controls.setExpression(QStringLiteral("[5]")));
    QCOMPARE(controls.view()->rank(), 0);
    QCOMPARE(controls.view()->value({}), 5.0);

    models::tensor::Tensor scalar = patterned({});
    controls.setTensor(scalar);
    QCOMPARE(controls.view()->rank(), 0);
    QCOMPARE(controls.view()->value({}), 0.0);
    QVERIFY(!controls.rowCombo()->isEnabled());
}

QTEST_MAIN(TestSliceControls)
#include "tst_slicecontrols.moc"
