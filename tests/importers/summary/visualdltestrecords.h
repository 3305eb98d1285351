#pragma once

// Records written as VisualDL's LogWriter frames them, and what the reader tests collect from polls: shared by
// the VisualDL reader's tests.

#include "importers/core/artifactimporter.h"
#include "importers/summary/proto/vdl_record.pb.h"
#include "models/embeddings/embeddingset.h"
#include "models/summary/summarydata.h"

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QtTest>

#include <cstdint>
#include <string>
#include <vector>

namespace runlens::test::vdl {

using namespace runlens::importers;
using namespace runlens::models::summary;

using Record = runlens::vdl::Record;

inline bool writeFile(const QString& path, const QByteArray& bytes, bool append = false)
{
    QFile file(path);
    if (!file.open(append ? QIODevice::Append : (QIODevice::WriteOnly | QIODevice::Truncate)))
        return false;
    return file.write(bytes) == bytes.size();
}

inline QByteArray le64(std::uint64_t value)
{
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[i] = char((value >> (8 * i)) & 0xffu);
    return out;
}

/// VisualDL's framing: the payload length as 8 little-endian bytes, then the payload, no checksum.
inline QByteArray framed(const QByteArray& payload)
{
    return le64(std::uint64_t(payload.size())) + payload;
}

inline QByteArray framed(const Record& record)
{
    const std::string bytes = record.SerializeAsString();
    return framed(QByteArray(bytes.data(), qsizetype(bytes.size())));
}

inline Record::Value* addValue(Record& record, const std::string& tag, qint64 step, qint64 timestampMs)
{
    Record::Value* value = record.add_values();
    value->set_tag(tag);
    value->set_id(step);
    value->set_timestamp(timestampMs);
    return value;
}

inline QByteArray scalarRecord(const std::string& tag, qint64 step, qint64 timestampMs, float number)
{
    Record record;
    addValue(record, tag, step, timestampMs)->set_value(number);
    return framed(record);
}

/// Four buckets over the edges 0, 1, 2, 3 and 4 + step/10, counting step, step + 1, step + 2, step + 3;
/// written at 1700000000000 + step ms unless `timestampMs` is given.
inline QByteArray histogramRecord(const std::string& tag, qint64 step, qint64 timestampMs = -1)
{
    Record record;
    const qint64 ms = timestampMs >= 0 ? timestampMs : 1700000000000 + step;
    auto* histogram = addValue(record, tag, step, ms)->mutable_histogram();
    for (int i = 0; i < 4; ++i) {
        histogram->add_hist(double(i + step));
        histogram->add_bin_edges(double(i));
    }
    histogram->add_bin_edges(4.0 + double(step) / 10.0);
    return framed(record);
}

/// Not a real PNG: the reader hands the bytes over without decoding them.
inline QByteArray imageBytes(qint64 step)
{
    return QByteArray("\x89PNG fake ") + QByteArray::number(step);
}

inline QByteArray imageRecord(const std::string& tag, qint64 step)
{
    Record record;
    const QByteArray bytes = imageBytes(step);
    addValue(record, tag, step, 1700000000000 + step)
        ->mutable_image()
        ->set_encoded_image_string(bytes.constData(), std::size_t(bytes.size()));
    return framed(record);
}

inline QByteArray textRecord(const std::string& tag, qint64 step, const std::string& text)
{
    Record record;
    addValue(record, tag, step, 1700000000000 + step)->mutable_text()->set_encoded_text_string(text);
    return framed(record);
}

/// A curve of `n` thresholds whose entries are made from the step and the index, so each can be checked.
inline QByteArray prCurveRecord(const std::string& tag, qint64 step, int n)
{
    Record record;
    auto* curve = addValue(record, tag, step, 1700000000000 + step)->mutable_pr_curve();
    for (int i = 0; i < n; ++i) {
        curve->add_tp(100 - i);
        curve->add_fp(50 - i);
        curve->add_tn(i);
        curve->add_fn(i + step);
        curve->add_precision(double(100 - i) / double(150 - 2 * i));
        curve->add_recall(double(100 - i) / double(100 + step));
    }
    return framed(record);
}

/// An add_embeddings value: one point per row of `vectors`, with the labels of `labels` (one list per point,
/// possibly shorter) and the column names of `header`.
inline QByteArray embeddingsRecord(const std::string& tag, qint64 step, const std::vector<std::vector<float>>& vectors,
                                   const std::vector<std::vector<std::string>>& labels = {},
                                   const std::vector<std::string>& header = {})
{
    Record record;
    auto* embeddings = addValue(record, tag, step, 1700000000000 + step)->mutable_embeddings();
    for (const std::string& name : header)
        embeddings->add_label_meta(name);
    for (std::size_t i = 0; i < vectors.size(); ++i) {
        auto* point = embeddings->add_embeddings();
        for (const float v : vectors[i])
            point->add_vectors(v);
        if (i < labels.size()) {
            for (const std::string& label : labels[i])
                point->add_label(label);
        }
    }
    return framed(record);
}

/// Compares a set read by the reader with one the Python oracle decoded.
inline void compareWithOracle(const models::embeddings::EmbeddingSet& set, const QJsonObject& want)
{
    QCOMPARE(set.name, want[QStringLiteral("tag")].toString());
    QCOMPARE(set.rows, want[QStringLiteral("points")].toInt());
    QCOMPARE(set.dims, want[QStringLiteral("dims")].toInt());
    QCOMPARE(set.values.size(), std::size_t(set.rows) * std::size_t(set.dims));
    const QJsonArray values = want[QStringLiteral("values")].toArray();
    const QJsonArray labels = want[QStringLiteral("labels")].toArray();
    QStringList header;
    for (const QJsonValue h : want[QStringLiteral("header")].toArray())
        header.append(h.toString());
    if (!header.isEmpty())
        QCOMPARE(set.metadataColumns, header);
    QCOMPARE(set.metadata.size(), std::size_t(set.rows));
    for (int r = 0; r < set.rows; ++r) {
        const QJsonArray row = values[r].toArray();
        QCOMPARE(row.size(), qsizetype(set.dims));
        for (int d = 0; d < set.dims; ++d) // both are the float32 on the wire
            QCOMPARE(set.row(r)[d], float(row[d].toDouble()));
        const QJsonArray cells = labels[r].toArray();
        for (int c = 0; c < int(set.metadataColumns.size()); ++c)
            QCOMPARE(set.cell(r, c), cells[c].toString());
    }
}

/// The summaries of all polls, merged with replace semantics as the SummaryStore takes them.
struct Summaries
{
    QMap<QString, HistogramSeries> histograms;
    QMap<QString, ImageSeries> images;
    QMap<QString, TextSeries> texts;
    QMap<QString, PrCurveSeries> prCurves;
    QMap<QString, PrCurveSeries> rocCurves;
    int batches = 0;

    void add(const ImportUpdate& update)
    {
        if (!update.summaries)
            return;
        ++batches;
        for (const auto& series : update.summaries->histograms)
            histograms.insert(series.tag, series);
        for (const auto& series : update.summaries->images)
            images.insert(series.tag, series);
        for (const auto& series : update.summaries->texts)
            texts.insert(series.tag, series);
        for (const auto& series : update.summaries->prCurves)
            prCurves.insert(series.tag, series);
        for (const auto& series : update.summaries->rocCurves)
            rocCurves.insert(series.tag, series);
    }
};

template<typename Item> inline std::vector<qint64> stepsOf(const SummarySeries<Item>& series)
{
    std::vector<qint64> steps;
    for (const Item& item : series.items)
        steps.push_back(item.step);
    return steps;
}

inline std::vector<double> doublesOf(const QJsonValue& value)
{
    std::vector<double> out;
    for (const QJsonValue& v : value.toArray())
        out.push_back(v.toDouble());
    return out;
}

} // namespace runlens::test::vdl
