#pragma once

#include "importers/summary/summaryflavor.h"

#include "models/summary/summarydata.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QFile>
#include <QSet>
#include <QString>

#include <memory>
#include <span>

namespace runlens::importers::summary {

/// Writes TFRecord-framed summary files as TensorBoard (or MindSpore) writers do: a version record first,
/// then one record per event. Used for the demo run folder, tests and benchmarks.
///
/// Records are buffered and reach the file on flush(), when the buffer fills, and on close() (also
/// called by the destructor). Writes report failure by returning false; errorString() says why.
///
/// ```
/// EventFileWriter writer;
/// writer.open(dir.filePath(EventFileWriter::tensorBoardFileName()));
/// writer.writeFileVersion();
/// writer.writeScalar(QStringLiteral("train/loss"), step, EventFileWriter::currentWallTime(), loss);
/// ```
class EventFileWriter
{
public:
    enum class OpenMode {
        Truncate, ///< start a new file
        Append, ///< continue an existing file (a writer that was restarted, a test growing a file)
    };

    /// How writeTensorScalar() stores the number, both found in TF2 files.
    enum class TensorEncoding {
        Content, ///< 4 little-endian bytes in tensor_content (tf.summary.scalar)
        FloatVal, ///< one float_val entry
    };

    /// How writeHistogram() stores a histogram in a TensorBoard file (MindSpore files have one way).
    enum class HistogramEncoding {
        Proto, ///< a HistogramProto in `histo` (torch, tensorboardX, TF1)
        Tensor, ///< a `[k, 3]` DT_DOUBLE tensor of (left, right, count) rows (TF2 tf.summary.histogram)
    };

    struct NamedValue
    {
        QString tag;
        double value = 0.0;
    };

    struct NamedHistogram
    {
        QString tag;
        models::summary::Histogram histogram;
    };

    explicit EventFileWriter(SummaryFlavor flavor = SummaryFlavor::TensorBoard);
    ~EventFileWriter();
    EventFileWriter(const EventFileWriter&) = delete;
    EventFileWriter& operator=(const EventFileWriter&) = delete;

    bool open(const QString& path, OpenMode mode = OpenMode::Truncate);
    /// Flushes and closes; true when everything written so far reached the file.
    bool close();
    bool isOpen() const;
    QString path() const;
    SummaryFlavor flavor() const { return m_flavor; }
    QString errorString() const { return m_error; }

    /// The first record of a file: "brain.Event:2" (TensorBoard) or "MindSpore.Event:1".
    bool writeFileVersion(double wallTime = currentWallTime());
    bool writeFileVersion(double wallTime, const QString& version);

    /// One scalar event: `simple_value` (TensorBoard) or `scalar_value` (MindSpore), stored as float32.
    bool writeScalar(const QString& tag, qint64 step, double wallTime, double value);
    /// Several scalars in one event, as MindSpore and Keras write a step's values.
    bool writeScalars(qint64 step, double wallTime, std::span<const NamedValue> values);
    /// A TF2-style scalar: a rank-0 DT_FLOAT tensor, with `scalars` plugin metadata on the tag's first
    /// value in this file only (as TensorBoard's writers do). TensorBoard flavour only.
    bool writeTensorScalar(const QString& tag, qint64 step, double wallTime, double value,
                           TensorEncoding encoding = TensorEncoding::Content);
    /// One histogram event. TensorBoard flavour: a HistogramProto (bucket right edges and counts; min,
    /// max, num, sum, sum_squares) or a TF2 tensor with `histograms` plugin metadata on the tag's first
    /// value in this file. MindSpore flavour: a Histogram of (left, width, count) buckets with the NaN and
    /// infinity counts. Statistics the histogram leaves unknown (NaN) are derived from its buckets where
    /// they can be (count, min, max) and written as 0 otherwise (sum, sum of squares), as neither format
    /// can say "unknown".
    bool writeHistogram(const QString& tag, qint64 step, double wallTime, const models::summary::Histogram& histogram,
                        HistogramEncoding encoding = HistogramEncoding::Proto);
    /// Several histograms in one event (a step's parameters, as MindSpore's and Keras' callbacks write).
    bool writeHistograms(qint64 step, double wallTime, std::span<const NamedHistogram> values,
                         HistogramEncoding encoding = HistogramEncoding::Proto);
    /// Frames and writes an already serialized event (or any payload, for tests).
    bool writeRecord(QByteArrayView payload);
    /// Writes raw bytes without framing (for tests that need damaged files).
    bool writeRaw(QByteArrayView bytes);

    bool flush();
    /// Records written since open() (buffered ones included).
    qint64 recordsWritten() const { return m_records; }
    /// Bytes written since open() (buffered ones included).
    qint64 bytesWritten() const { return m_bytes; }
    /// The buffer is written to the file when it exceeds this size (default 1 MiB).
    void setBufferSize(qsizetype bytes) { m_bufferLimit = bytes; }

    static double currentWallTime();
    static QString defaultFileVersion(SummaryFlavor flavor);

    /// `events.out.tfevents.<unix seconds>.<host>.<pid>.<counter>`, as torch/TensorBoard writers name
    /// files. Negative or empty arguments mean now, this machine and this process.
    static QString tensorBoardFileName(qint64 unixSeconds = -1, const QString& host = {}, qint64 pid = -1,
                                       int counter = 0);
    /// `events.out.events.summary.<unix seconds>.<device id>.<host>_MS`, as MindSpore names files.
    static QString mindSporeFileName(qint64 unixSeconds = -1, int deviceId = 0, const QString& host = {});

private:
    bool appendRecord(QByteArrayView payload);
    bool writeBuffer();

    struct Encoder;
    SummaryFlavor m_flavor;
    QFile m_file;
    QByteArray m_buffer;
    qsizetype m_bufferLimit = 1 << 20;
    qint64 m_records = 0;
    qint64 m_bytes = 0;
    QString m_error;
    QSet<QString> m_tagsWithMetadata;
    std::unique_ptr<Encoder> m_encoder;
};

} // namespace runlens::importers::summary
