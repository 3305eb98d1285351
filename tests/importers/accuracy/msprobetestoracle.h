#pragma once

// The msprobe dump reader's tests: a Python oracle decoding the same dump.json, and comparing with it.

#include "tests/pythonoracle.h"

#include "importers/accuracy/msprobedumpreader.h"
#include "models/core/diagnostic.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <optional>

namespace runlens::test::msprobe {

using namespace runlens::models;
using namespace runlens::models::accuracy;
using namespace runlens::importers::accuracy;

inline void writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

inline QString diagnosticsText(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

/// The oracle's value of a statistic against ours: numbers (NaN and ±Inf written as strings), booleans of
/// bool tensors, and absent/null.
inline bool sameStatistic(const QJsonValue& expected, const std::optional<double>& actual)
{
    if (expected.isUndefined() || expected.isNull())
        return !actual.has_value();
    if (!actual)
        return false;
    if (expected.isBool())
        return *actual == (expected.toBool() ? 1.0 : 0.0);
    if (expected.isString()) {
        const QString text = expected.toString();
        if (text == QLatin1String("NaN"))
            return std::isnan(*actual);
        return std::isinf(*actual) && (*actual > 0) == (text == QLatin1String("Infinity"));
    }
    return expected.toDouble() == *actual;
}

inline QJsonObject runOracle(const QString& folder, bool* ok)
{
    *ok = false;
    const test::PythonRun run = test::runPythonScript(QStringLiteral("accuracy/msprobe_oracle.py"), { folder });
    if (!run.ok()) {
        qWarning("%s", qPrintable(run.message));
        return {};
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.output.toUtf8(), &error);
    *ok = document.isObject();
    return document.object();
}

/// Every entry and row of `dump` against the python reading of the same folder.
inline void compareWithOracle(const MsprobeDump& dump, const QJsonObject& oracle)
{
    QCOMPARE(dump.taskText, oracle.value(QStringLiteral("task")).toString());
    QCOMPARE(dump.levelText, oracle.value(QStringLiteral("level")).toString());
    const QJsonArray entries = oracle.value(QStringLiteral("entries")).toArray();
    QCOMPARE(dump.entries.size(), entries.size());
    for (int i = 0; i < entries.size(); ++i) {
        const QJsonObject expected = entries[i].toObject();
        const DumpEntry& entry = dump.entries[i];
        QCOMPARE(entry.name.full, expected.value(QStringLiteral("name")).toString());
        QVERIFY2(entry.name.valid, qPrintable(entry.name.full));
        const QJsonObject parts = expected.value(QStringLiteral("parts")).toObject();
        QCOMPARE(entry.name.prefix, parts.value(QStringLiteral("prefix")).toString());
        QCOMPARE(entry.name.counter, qint64(parts.value(QStringLiteral("counter")).toInteger()));
        QCOMPARE(directionId(entry.name.direction), parts.value(QStringLiteral("direction")).toString());
        QCOMPARE(entry.name.api, parts.value(QStringLiteral("api")).toString());
        QCOMPARE(entry.name.modulePath, parts.value(QStringLiteral("path")).toString());
        QCOMPARE(entry.name.className, parts.value(QStringLiteral("cls")).toString());

        const QJsonArray rows = expected.value(QStringLiteral("rows")).toArray();
        QCOMPARE(entry.rows.size(), rows.size());
        for (int r = 0; r < rows.size(); ++r) {
            const QJsonObject want = rows[r].toObject();
            const DumpRow& row = entry.rows[r];
            QCOMPARE(row.name, want.value(QStringLiteral("name")).toString());
            QCOMPARE(row.type, want.value(QStringLiteral("type")).toString());
            QCOMPARE(row.dtype, want.value(QStringLiteral("dtype")).toString());
            if (want.contains(QStringLiteral("shape"))) {
                QList<qint64> shape;
                for (const QJsonValue& dim : want.value(QStringLiteral("shape")).toArray())
                    shape.append(dim.toInteger());
                QCOMPARE(row.shape, shape);
                QCOMPARE(row.kind, ValueKind::Tensor);
            }
            QVERIFY2(sameStatistic(want.value(QStringLiteral("Max")), row.max), qPrintable(row.name));
            QVERIFY2(sameStatistic(want.value(QStringLiteral("Min")), row.min), qPrintable(row.name));
            QVERIFY2(sameStatistic(want.value(QStringLiteral("Mean")), row.mean), qPrintable(row.name));
            QVERIFY2(sameStatistic(want.value(QStringLiteral("Norm")), row.norm), qPrintable(row.name));
            QCOMPARE(row.md5, want.value(QStringLiteral("md5")).toString());
            if (want.contains(QStringLiteral("requires_grad")))
                QCOMPARE(row.requiresGrad, std::optional<bool>(want.value(QStringLiteral("requires_grad")).toBool()));
            else
                QVERIFY(!row.requiresGrad);
            const QJsonValue value = want.value(QStringLiteral("value"));
            if (value.isDouble())
                QCOMPARE(row.value.toDouble(), value.toDouble());
            else if (value.isString())
                QCOMPARE(row.value.toString(), value.toString());
            else if (value.isBool())
                QCOMPARE(row.value.toBool(), value.toBool());
            else if (value.isArray())
                QCOMPARE(row.value.toList().size(), value.toArray().size());
        }
    }

    const QJsonObject parents = oracle.value(QStringLiteral("parents")).toObject();
    QCOMPARE(dump.parents.size(), parents.size());
    for (auto it = parents.begin(); it != parents.end(); ++it) {
        QVERIFY2(dump.hasParentRecord(it.key()), qPrintable(it.key()));
        QCOMPARE(dump.parentOf(it.key()), it.value().toString());
    }

    const QJsonObject stacks = oracle.value(QStringLiteral("stacks")).toObject();
    QCOMPARE(dump.stackIndex.size(), stacks.size());
    for (auto it = stacks.begin(); it != stacks.end(); ++it) {
        const Stack* stack = dump.stackOf(it.key());
        QVERIFY2(stack, qPrintable(it.key()));
        const QJsonObject want = it.value().toObject();
        QCOMPARE(stack->size(), want.value(QStringLiteral("frames")).toInt());
        if (!stack->isEmpty()) {
            QCOMPARE(stack->first().file, want.value(QStringLiteral("file")).toString());
            QCOMPARE(stack->first().line, want.value(QStringLiteral("line")).toInt());
        }
    }
}

// A tensor-task PyTorch dump at L1: data files, a nested list argument, kwargs, NaN/Inf statistics written
// as Python writes them, a bool tensor, non-tensor arguments, and a tensor msprobe could not save.

} // namespace runlens::test::msprobe
