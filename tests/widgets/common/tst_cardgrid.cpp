#include "widgets/common/cardgrid.h"

#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::widgets;

// The card grid shared by the Scalars, Distributions and Images panels: columns from the width and the card
// size, cards placed row by row.

class TestCardGrid : public QObject
{
    Q_OBJECT

private slots:
    void columnsFromWidth_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("columns");
        const int small = int(CardSize::Small);
        const int medium = int(CardSize::Medium);
        const int large = int(CardSize::Large);
        // Medium: 380 px cards, 10 px apart, four at most.
        QTest::newRow("medium narrow") << medium << 300 << 1;
        QTest::newRow("medium one") << medium << 769 << 1;
        QTest::newRow("medium two") << medium << 770 << 2;
        QTest::newRow("medium three") << medium << 1190 << 3;
        QTest::newRow("medium capped") << medium << 5000 << 4;
        // Small: 258 px cards, six at most.
        QTest::newRow("small three") << small << 800 << 3;
        QTest::newRow("small four") << small << 1190 << 4;
        QTest::newRow("small capped") << small << 5000 << 6;
        // Large: 570 px cards, two at most.
        QTest::newRow("large one") << large << 1100 << 1;
        QTest::newRow("large two") << large << 1190 << 2;
        QTest::newRow("large capped") << large << 5000 << 2;
    }

    void columnsFromWidth()
    {
        QFETCH(int, size);
        QFETCH(int, width);
        QFETCH(int, columns);
        CardGridSpec medium;
        medium.aspect = 0.64;
        const CardGridSpec spec = medium.scaled(CardSize(size));
        const CardGridGeometry geometry = cardGridGeometry(spec, width);
        QCOMPARE(geometry.columns, columns);
        // The cards fill the width, and their height follows their width within the spec's bounds.
        QVERIFY(geometry.cardWidth * columns + (columns - 1) * spec.spacing <= width || columns == 1);
        QVERIFY(geometry.cardHeight >= spec.minHeight && geometry.cardHeight <= spec.maxHeight);
    }

    void fixedHeightWithoutAspect()
    {
        CardGridSpec spec;
        spec.minHeight = 150;
        QCOMPARE(cardGridGeometry(spec, 2000).cardHeight, 150);
        QCOMPARE(cardGridGeometry(spec, 0).columns, 1);
    }

    void sizeKeys()
    {
        for (CardSize size : { CardSize::Small, CardSize::Medium, CardSize::Large })
            QCOMPARE(cardSizeFromKey(cardSizeKey(size)), size);
        QCOMPARE(cardSizeFromKey(QStringLiteral("huge"), CardSize::Large), CardSize::Large);
    }

    void placesCardsRowByRow()
    {
        CardGrid grid;
        QList<QWidget*> cards;
        std::vector<std::unique_ptr<QWidget>> owned;
        for (int i = 0; i < 10; ++i) {
            owned.push_back(std::make_unique<QWidget>());
            cards << owned.back().get();
        }
        grid.setColumns(3, 120);
        grid.setWidgets(cards);
        QCOMPARE(grid.cellOf(cards[4]), qMakePair(1, 1));
        QCOMPARE(grid.cellOf(cards[9]), qMakePair(3, 0));
        QCOMPARE(cards[4]->height(), 120);
        // Fewer columns: the same cards flow onto more rows.
        grid.setColumns(2, 100);
        QCOMPARE(grid.cellOf(cards[4]), qMakePair(2, 0));
        QCOMPARE(cards[9]->height(), 100);
        // A card left out is hidden and out of the grid, still alive.
        grid.setWidgets(cards.mid(0, 5));
        QCOMPARE(grid.cellOf(cards[9]), qMakePair(-1, -1));
        QVERIFY(cards[9]->isHidden());
        // Replacing puts the new card in the old one's cell.
        auto replacement = std::make_unique<QWidget>();
        grid.replaceWidget(cards[3], replacement.get());
        QCOMPARE(grid.cellOf(replacement.get()), qMakePair(1, 1));
        QVERIFY(cards[3]->isHidden());
        // Widgets go back to their owners before the grid, which only laid them out.
        for (auto& w : owned)
            w->setParent(nullptr);
        replacement->setParent(nullptr);
    }
};

QTEST_MAIN(TestCardGrid)
#include "tst_cardgrid.moc"
