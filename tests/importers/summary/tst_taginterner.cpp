#include "importers/summary/taginterner.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace runlens::importers::summary;

class TestTagInterner : public QObject
{
    Q_OBJECT

private slots:
    void denseIndicesInFirstSeenOrder()
    {
        TagInterner interner;
        bool added = false;
        QCOMPARE(interner.intern("train/loss", &added), 0);
        QVERIFY(added);
        QCOMPARE(interner.intern("train/lr", &added), 1);
        QVERIFY(added);
        QCOMPARE(interner.intern("train/loss", &added), 0);
        QVERIFY(!added);
        QCOMPARE(interner.size(), 2);
        QCOMPARE(interner.bytes(1), std::string_view("train/lr"));
        QCOMPARE(interner.find("train/lr"), 1);
        QCOMPARE(interner.find("train/l"), -1);
        QCOMPARE(TagInterner().find("x"), -1);
    }

    void manyNearlyEqualKeys()
    {
        // Keys that differ only in the middle, in length, or by embedded NUL bytes, across several rehashes.
        std::vector<std::string> keys;
        for (int i = 0; i < 5000; ++i)
            keys.push_back("model/encoder/layers." + std::to_string(i) + "/self_attention/out_proj/grad_norm");
        for (std::size_t length = 0; length <= 40; ++length)
            keys.push_back(std::string(length, 'a'));
        keys.push_back(std::string("a\0b", 3));
        keys.push_back(std::string("a\0c", 3));
        keys.push_back(std::string("\0", 1));
        TagInterner interner;
        for (std::size_t i = 0; i < keys.size(); ++i)
            QCOMPARE(interner.intern(keys[i]), int(i));
        QCOMPARE(interner.size(), int(keys.size()));
        for (std::size_t i = 0; i < keys.size(); ++i) {
            QCOMPARE(interner.find(keys[i]), int(i));
            QCOMPARE(interner.bytes(int(i)), std::string_view(keys[i]));
        }
    }

    void hashDependsOnEveryByte()
    {
        const std::string base(37, 'x');
        const std::uint64_t reference = TagInterner::hash(base);
        for (std::size_t i = 0; i < base.size(); ++i) {
            std::string changed = base;
            changed[i] = 'y';
            QVERIFY(TagInterner::hash(changed) != reference);
        }
        QVERIFY(TagInterner::hash(base + std::string(1, '\0')) != reference);
    }
};

QTEST_GUILESS_MAIN(TestTagInterner)
#include "tst_taginterner.moc"
