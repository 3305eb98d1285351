#include "tests/fuzz/fuzztargets.h"

#include "importers/accuracy/msprobedumpreader.h"
#include "importers/cluster/mindsporecluster.h"
#include "importers/cluster/rankdigestfile.h"
#include "importers/cluster/rankdigestpass.h"
#include "importers/core/filesniffer.h"
#include "importers/embeddings/projectorreader.h"
#include "importers/graph/anfirgraphreader.h"
#include "importers/graph/dotgraphreader.h"
#include "importers/graph/mindirgraphreader.h"
#include "importers/graph/mindsporeirreader.h"
#include "importers/graph/onnxgraphreader.h"
#include "importers/graph/paddlegraphreader.h"
#include "importers/graph/paddleparams.h"
#include "importers/graph/parallelstrategyreader.h"
#include "importers/graph/savedmodelreader.h"
#include "importers/graph/tfcheckpointindex.h"
#include "importers/graph/tfgraphreader.h"
#include "importers/graph/tflitegraphreader.h"
#include "importers/graph/torchscriptreader.h"
#include "importers/graph/visualdlgraphreader.h"
#include "importers/loggers/flatjson.h"
#include "importers/loggers/loggerimporter.h"
#include "importers/loggers/loggerruns.h"
#include "importers/loggers/wandbrunfile.h"
#include "importers/memory/cudasnapshot.h"
#include "importers/memory/memorytimelinereader.h"
#include "importers/memory/mindsporememory.h"
#include "importers/memory/safepickle.h"
#include "importers/memory/tracememory.h"
#include "importers/pipeline/pipelinefiles.h"
#include "importers/profiler/csvtable.h"
#include "importers/profiler/profilerrunreader.h"
#include "importers/summary/eventfilereader.h"
#include "importers/summary/lineagereader.h"
#include "importers/summary/proto/ms_summary.pb.h"
#include "importers/summary/proto/tb_summary.pb.h"
#include "importers/summary/proto/tb_tensor.pb.h"
#include "importers/summary/recordreader.h"
#include "importers/summary/summaryvalues.h"
#include "importers/summary/visualdlreader.h"
#include "importers/system/npusmi.h"
#include "importers/system/systemsampler.h"
#include "importers/tensor/npyfile.h"
#include "importers/tensor/npyheader.h"
#include "importers/tensor/npzfile.h"
#include "importers/tensor/ptfile.h"
#include "importers/tensor/safetensorsfile.h"
#include "importers/tensor/tensorfileimporter.h"
#include "importers/trace/chrometracereader.h"
#include "importers/trace/traceinput.h"
#include "models/accuracy/divergence.h"
#include "models/accuracy/dumpgraph.h"
#include "models/accuracy/dumpmatching.h"
#include "models/embeddings/neighbours.h"
#include "models/embeddings/pca.h"
#include "models/memory/memoryanalysis.h"
#include "models/summary/spectrogram.h"
#include "models/summary/wavdecode.h"
#include "models/tensor/tensorslice.h"
#include "models/tensor/tensorstatistics.h"
#include "models/trace/tracelod.h"
#include "models/trace/tracestorecodec.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtGlobal>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace runlens::importers;
using namespace runlens::models;

namespace runlens::fuzz {

namespace {

/// A TFRecord-framed or growing file is polled again after its first poll, as the import session does
/// while a training job writes; more polls than this add nothing an input can steer.
constexpr int kMaxPolls = 3;
/// Elements of a decoded summary tensor turned into doubles; the application never does this for more.
constexpr std::int64_t kMaxTensorValues = 1 << 20;
/// Tensors of a container that are viewed beyond what TensorFileImporter already reads.
constexpr int kMaxViewedTensors = 4;

std::string_view asText(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

/// The first byte picks one of `count` variants (file names, decoders); the rest is the file. An empty
/// input picks the first variant with no content.
std::size_t pickVariant(const std::uint8_t*& data, std::size_t& size, std::size_t count)
{
    if (size == 0)
        return 0;
    const std::size_t variant = data[0] % count;
    ++data;
    --size;
    return variant;
}

/// The one temporary folder of this process: made on first use, reused by every input, removed at exit.
const QTemporaryDir& scratchDir()
{
    static const QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/runlens-fuzz-XXXXXX"));
    if (!dir.isValid())
        qFatal("cannot create a temporary folder for the fuzz inputs");
    return dir;
}

/// Writes the input to `relativePath` inside a folder owned by `target` that holds nothing else (the
/// previous input's files are removed first, so folder readers see only this input) and returns the
/// folder. Readers that only take paths get their bytes this way.
QString writeInput(const char* target, const QString& relativePath, const std::uint8_t* data, std::size_t size,
                   QString* filePath = nullptr)
{
    QDir folder(scratchDir().filePath(QString::fromLatin1(target)));
    folder.removeRecursively();
    const QString path = folder.filePath(relativePath);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(reinterpret_cast<const char*>(data), qint64(size)) != qint64(size))
        qFatal("cannot write the fuzz input to %s", qPrintable(path));
    file.close();
    if (filePath)
        *filePath = path;
    return folder.absolutePath();
}

QString writeFile(const char* target, const QString& name, const std::uint8_t* data, std::size_t size)
{
    QString path;
    writeInput(target, name, data, size, &path);
    return path;
}

void pollImporter(ArtifactImporter& importer)
{
    const ImportControl control;
    for (int i = 0; i < kMaxPolls; ++i) {
        const ImportUpdate update = importer.poll(control);
        if (!update.mayGrow)
            break;
    }
}

// --- summaries -------------------------------------------------------------------------------------------

void fuzzTfRecord(const std::uint8_t* data, std::size_t size)
{
    // In memory: every frame of the buffer, as the resumable readers walk it.
    const char* bytes = reinterpret_cast<const char*>(data);
    std::size_t at = 0;
    while (at < size) {
        const importers::summary::tfrecord::Frame frame = importers::summary::tfrecord::frame(bytes + at, size - at);
        if (frame.status != importers::summary::RecordStatus::Ok
            && frame.status != importers::summary::RecordStatus::BadDataCrc)
            break;
        if (frame.recordSize == 0 || frame.recordSize > size - at)
            std::abort(); // a frame that does not move forward or leaves the buffer is the bug
        at += frame.recordSize;
    }
    // From a file, with a chunk far smaller than the records so that the buffer refills mid-record.
    importers::summary::RecordReader reader(writeFile("tfrecord", QStringLiteral("records.tfrecord"), data, size));
    reader.setChunkSize(64);
    if (!reader.open())
        return;
    importers::summary::RecordReader::Record record;
    for (;;) {
        const importers::summary::RecordStatus status = reader.next(record);
        if (status != importers::summary::RecordStatus::Ok && status != importers::summary::RecordStatus::BadDataCrc)
            break;
    }
}

void fuzzEventFile(const std::uint8_t* data, std::size_t size)
{
    importers::summary::EventFileReader reader(
        writeFile("eventfile", QStringLiteral("events.out.tfevents.1700000000.host"), data, size),
        importers::summary::SummaryFlavor::TensorBoard);
    pollImporter(reader);
}

void fuzzMindSporeSummary(const std::uint8_t* data, std::size_t size)
{
    importers::summary::EventFileReader reader(
        writeFile("mssummary", QStringLiteral("events.summary.1700000000.0.host_MS"), data, size),
        importers::summary::SummaryFlavor::MindSpore);
    pollImporter(reader);
}

void fuzzVisualDl(const std::uint8_t* data, std::size_t size)
{
    importers::summary::VisualDlReader reader(
        writeFile("visualdl", QStringLiteral("vdlrecords.1700000000.log"), data, size));
    pollImporter(reader);
}

void fuzzLineage(const std::uint8_t* data, std::size_t size)
{
    importers::summary::LineageReader reader(
        writeFile("lineage", QStringLiteral("events.summary.1700000000.0.host_lineage"), data, size));
    pollImporter(reader);
}

void fuzzSummaryValues(const std::uint8_t* data, std::size_t size)
{
    namespace values = importers::summary::values;
    const std::size_t decoder = pickVariant(data, size, 10);
    const std::string bytes(asText(data, size));
    switch (decoder) {
    case 0: {
        tb::TensorProto proto;
        models::tensor::Tensor out;
        if (proto.ParseFromString(bytes) && values::numericTensor(proto, &out).isEmpty()
            && out.elementCount() <= kMaxTensorValues)
            values::tensorValues(out);
        break;
    }
    case 1: {
        tb::TensorProto proto;
        double value = 0;
        if (proto.ParseFromString(bytes))
            values::tensorScalar(proto, &value);
        break;
    }
    case 2: {
        tb::HistogramProto proto;
        models::summary::Histogram out;
        if (proto.ParseFromString(bytes))
            values::histogramFromProto(proto, &out);
        break;
    }
    case 3: {
        tb::TensorProto proto;
        models::summary::Histogram out;
        if (proto.ParseFromString(bytes))
            values::histogramFromTensor(proto, &out);
        break;
    }
    case 4: {
        ms::Summary_Histogram proto;
        models::summary::Histogram out;
        if (proto.ParseFromString(bytes))
            values::histogramFromMindSpore(proto, &out);
        break;
    }
    case 5: {
        tb::TensorProto proto;
        models::summary::SummaryImage out;
        if (proto.ParseFromString(bytes))
            values::imagesFromTensor(proto, &out);
        break;
    }
    case 6: {
        tb::TensorProto proto;
        models::summary::SummaryText out;
        if (proto.ParseFromString(bytes))
            values::textFromTensor(proto, &out);
        break;
    }
    case 7: {
        tb::TensorProto proto;
        models::summary::PrCurve out;
        if (proto.ParseFromString(bytes))
            values::prCurveFromTensor(proto, &out);
        break;
    }
    case 8: {
        models::summary::HParams out;
        values::hparamsFromPluginData(bytes, &out);
        break;
    }
    default: {
        ms::TensorProto proto;
        models::tensor::Tensor out;
        if (proto.ParseFromString(bytes))
            values::mindSporeTensor(proto, &out);
        break;
    }
    }
}

// --- graphs ----------------------------------------------------------------------------------------------

const QString kGraphName = QStringLiteral("fuzz-input");

void fuzzOnnx(const std::uint8_t* data, std::size_t size)
{
    importers::graph::OnnxGraphReader::read(asText(data, size), kGraphName);
}

void fuzzTfGraph(const std::uint8_t* data, std::size_t size)
{
    importers::graph::TfGraphReader::readGraphDef(asText(data, size), kGraphName);
}

void fuzzTfGraphText(const std::uint8_t* data, std::size_t size)
{
    importers::graph::TfGraphReader::readText(asText(data, size), kGraphName);
}

void fuzzAnfIr(const std::uint8_t* data, std::size_t size)
{
    importers::graph::AnfIrGraphReader::read(asText(data, size), kGraphName);
}

void fuzzMindSporeIr(const std::uint8_t* data, std::size_t size)
{
    importers::graph::MindSporeIrReader::read(asText(data, size), kGraphName);
}

void fuzzDot(const std::uint8_t* data, std::size_t size)
{
    importers::graph::DotGraphReader::read(asText(data, size), kGraphName);
}

void fuzzTorchScript(const std::uint8_t* data, std::size_t size)
{
    importers::graph::TorchScriptReader::read(asText(data, size), kGraphName);
}

void fuzzParallelStrategy(const std::uint8_t* data, std::size_t size)
{
    importers::graph::ParallelStrategyReader::read(asText(data, size), kGraphName);
}

void fuzzPaddle(const std::uint8_t* data, std::size_t size)
{
    importers::graph::PaddleGraphReader::read(asText(data, size), kGraphName);
}

void fuzzPaddleParams(const std::uint8_t* data, std::size_t size)
{
    // A combined parameter file walked for the names of a small program (the fixture's, in name order).
    QBuffer buffer;
    buffer.setData(reinterpret_cast<const char*>(data), qsizetype(size));
    if (!buffer.open(QIODevice::ReadOnly))
        return;
    static const std::vector<std::string> kNames { "batch_norm_0.b_0", "batch_norm_0.w_0", "batch_norm_0.w_1",
                                                   "batch_norm_0.w_2", "conv2d_0.b_0",     "conv2d_0.w_0",
                                                   "linear_0.b_0",     "linear_0.w_0" };
    const importers::graph::PaddleParamsIndex index = importers::graph::indexPaddleParams(buffer, kNames);
    std::int64_t end = 0;
    for (const importers::graph::PaddleParam& p : index.params) {
        if (p.offset < end || p.length < 0 || p.offset + p.length > std::int64_t(size))
            std::abort(); // a parameter outside the file, or overlapping the one before
        end = p.offset + p.length;
    }
}

void fuzzMindIr(const std::uint8_t* data, std::size_t size)
{
    importers::graph::MindIrGraphReader::read(asText(data, size), kGraphName);
}

void fuzzSavedModel(const std::uint8_t* data, std::size_t size)
{
    importers::graph::SavedModelReader::readSavedModel(asText(data, size), kGraphName);
    importers::graph::SavedModelReader::readMetaGraph(asText(data, size), kGraphName);
}

void fuzzTfCheckpointIndex(const std::uint8_t* data, std::size_t size)
{
    importers::graph::readTfCheckpointIndex(asText(data, size));
}

void fuzzTfLite(const std::uint8_t* data, std::size_t size)
{
    importers::graph::TfLiteGraphReader::read(asText(data, size), kGraphName);
}

void fuzzVisualDlGraph(const std::uint8_t* data, std::size_t size)
{
    importers::graph::VisualDlGraphReader::read(asText(data, size), kGraphName);
}

// --- traces and memory -----------------------------------------------------------------------------------

void fuzzChromeTrace(const std::uint8_t* data, std::size_t size)
{
    const importers::trace::ChromeTraceResult result
        = importers::trace::ChromeTraceReader::readBytes(std::string(asText(data, size)), kGraphName);
    // The memory curves are read from the events' args kept in the store.
    if (result.store)
        importers::memory::memoryFromTrace(*result.store);
}

void fuzzDigestPass(const std::uint8_t* data, std::size_t size)
{
    // Differential: whenever the single pass makes a digest, the store path must make the same one.
    Diagnostics diagnostics;
    const importers::trace::TraceInput input
        = importers::trace::traceInputFromBytes(std::string(asText(data, size)), kGraphName, diagnostics);
    if (!input.buffer || !diagnostics.isEmpty())
        return;
    const std::optional<models::cluster::RankDigest> fast
        = importers::cluster::digestTraceSinglePass(input, kGraphName, {});
    if (!fast)
        return;
    const importers::trace::ChromeTraceResult read
        = importers::trace::ChromeTraceReader::readBytes(std::string(asText(data, size)), kGraphName);
    if (!read.store || read.store->sources().empty()) {
        fprintf(stderr, "the single pass made a digest the store path cannot\n");
        std::abort();
    }
    models::cluster::RankDigest reference = models::cluster::computeRankDigest(*read.store);
    const importers::memory::MemoryReadResult memory = importers::memory::memoryFromTrace(*read.store);
    if (memory.profile) {
        for (const models::memory::MemoryDevice& device : memory.profile->devices) {
            const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
            if (device.deviceId >= 0 && !device.relative && peak.valid
                && !(peak.bytes <= reference.figures.peakMemoryBytes))
                reference.figures.peakMemoryBytes = peak.bytes;
        }
    }
    if (importers::cluster::encodeRankDigest(*fast) != importers::cluster::encodeRankDigest(reference)) {
        fprintf(stderr, "the single pass and the store path made different digests\n");
        std::abort();
    }
}

void fuzzTraceIndex(const std::uint8_t* data, std::size_t size)
{
    // Not strict: the version and checksum checks would stop almost every input before the sections.
    QString why;
    const models::trace::TraceStoreCodec::Decoded decoded = models::trace::TraceStoreCodec::read(
        std::span(reinterpret_cast<const std::byte*>(data), size), nullptr, false, why);
    if (!decoded.store)
        return;
    // The painting index read back with it, walked as the painter and hit testing walk it; what the timeline
    // builds first from a store without one; and every slice's args.
    if (const std::shared_ptr<const models::trace::TraceLod>& cached = decoded.store->lod()) {
        for (std::size_t t = 0; t < decoded.store->tracks().size(); ++t) {
            const models::trace::Track& track = decoded.store->tracks()[t];
            const auto& rows = cached->track(int(t)).rows;
            for (std::size_t d = 0; d < rows.size(); ++d) {
                models::trace::TraceLod::sliceAt(track, rows[d], decoded.store->startTime(), 1000);
                models::trace::TraceLod::firstVisible(track, rows[d], decoded.store->endTime());
                if (const models::trace::TraceLod::Level* level = cached->levelFor(int(t), int(d), 1e18)) {
                    for (std::uint32_t p : level->position) {
                        if (p != models::trace::TraceLod::kEmpty)
                            (void)track.start[rows[d][p]];
                    }
                }
            }
        }
    }
    const models::trace::TraceLod lod(*decoded.store);
    for (std::size_t t = 0; t < decoded.store->tracks().size(); ++t) {
        for (std::size_t i = 0; i < decoded.store->tracks()[t].size(); ++i)
            decoded.store->argsJson(int(t), i);
    }
    models::trace::TraceStoreCodec::equal(*decoded.store, *decoded.store);
}

void fuzzMemoryTimeline(const std::uint8_t* data, std::size_t size)
{
    importers::memory::readMemoryTimelineBytes(std::string(asText(data, size)), kGraphName);
}

void fuzzMindSporeMemory(const std::uint8_t* data, std::size_t size)
{
    static const std::array names
        = { "memory_usage_summary_0.json", "memory_usage_details_0.json", "cpu_ms_memory_record_0.txt",
            "memory_record.csv",           "operator_memory_0.csv",       "operator_memory.csv" };
    const std::size_t name = pickVariant(data, size, names.size());
    importers::memory::readMindSporeMemory(writeFile("msmemory", QString::fromLatin1(names[name]), data, size));
}

void fuzzPickle(const std::uint8_t* data, std::size_t size)
{
    importers::memory::decodePickle(asText(data, size), kGraphName);
}

void fuzzCudaSnapshot(const std::uint8_t* data, std::size_t size)
{
    importers::memory::readCudaSnapshotBytes(asText(data, size), kGraphName);
}

// --- tensors ---------------------------------------------------------------------------------------------

/// A WAV clip as the Audio panel reads it: header, samples, and the spectrogram of its first channel.
void fuzzWav(const std::uint8_t* data, std::size_t size)
{
    models::summary::wav::Clip clip;
    if (!models::summary::wav::decode(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), &clip)
             .isEmpty())
        return;
    std::vector<float> mono(std::size_t(clip.header.frames), 0.0f);
    for (qint64 f = 0; f < clip.header.frames; ++f)
        mono[std::size_t(f)] = clip.sample(f, 0);
    models::summary::computeSpectrogram(mono.data(), clip.header.frames, clip.header.sampleRate, 256, 32);
}

void fuzzNpyHeader(const std::uint8_t* data, std::size_t size)
{
    importers::tensor::parseNpyHeader(asText(data, size), std::int64_t(size), "fuzz-input.npy");
}

/// Lists a tensor file, opens every tensor with statistics (what `runlens info` does) and views a few
/// through a strided slice as the Tensor inspector does.
void fuzzTensorFile(const char* target, const char* name, ArtifactKind kind, const std::uint8_t* data, std::size_t size)
{
    const QString path = writeFile(target, QString::fromLatin1(name), data, size);
    importers::tensor::TensorFileImporter importer(path, kind);
    pollImporter(importer);

    QList<models::tensor::TensorInfo> listed;
    if (kind == ArtifactKind::TensorNpz)
        listed = importers::tensor::listNpzFile(path).tensors;
    else if (kind == ArtifactKind::TensorSafetensors)
        listed = importers::tensor::listSafetensorsFile(path).tensors;
    else if (kind == ArtifactKind::TensorPt)
        listed = importers::tensor::listPtFile(path).tensors;
    else if (importers::tensor::NpyFileResult opened = importers::tensor::openNpyFile(path); opened.tensor) {
        models::tensor::TensorInfo info;
        info.source = importers::tensor::npyTensorSource(path);
        listed << info;
    }
    models::tensor::StatisticsOptions options;
    options.threads = 1;
    for (int i = 0; i < listed.size() && i < kMaxViewedTensors; ++i) {
        if (!listed[i].source)
            continue;
        const models::tensor::TensorResult opened = listed[i].source->open();
        if (!opened.tensor)
            continue;
        const models::tensor::SliceResult view
            = models::tensor::sliceTensor(*opened.tensor, QStringLiteral("..., ::-2"));
        if (view.tensor)
            models::tensor::computeStatistics(*view.tensor, options);
    }
}

void fuzzNpy(const std::uint8_t* data, std::size_t size)
{
    fuzzTensorFile("npy", "tensor.npy", ArtifactKind::TensorNpy, data, size);
}

void fuzzNpz(const std::uint8_t* data, std::size_t size)
{
    fuzzTensorFile("npz", "arrays.npz", ArtifactKind::TensorNpz, data, size);
}

void fuzzSafetensors(const std::uint8_t* data, std::size_t size)
{
    fuzzTensorFile("safetensors", "model.safetensors", ArtifactKind::TensorSafetensors, data, size);
}

void fuzzPt(const std::uint8_t* data, std::size_t size)
{
    fuzzTensorFile("pt", "model.pt", ArtifactKind::TensorPt, data, size);
}

void fuzzWandbRun(const std::uint8_t* data, std::size_t size)
{
    // Byte 0 picks the input: the whole file; the records after a valid header; or fragments (type byte, 16-bit
    // length, data) that the target frames with valid checksums, so the record decoder is reached.
    const std::size_t variant = pickVariant(data, size, 3);
    QByteArray file;
    if (variant != 0)
        file = QByteArray(":W&B\xE1\xBE\x00", 7);
    if (variant == 2) {
        std::size_t pos = 0;
        while (pos + 3 <= size) {
            const std::uint8_t type = data[pos];
            std::size_t length = std::size_t(data[pos + 1] | data[pos + 2] << 8);
            pos += 3;
            length = std::min(length, size - pos);
            const QByteArrayView fragment(reinterpret_cast<const char*>(data + pos), qsizetype(length));
            const quint32 crc = importers::loggers::wandbFragmentChecksum(type, fragment);
            char header[7] = { char(crc),    char(crc >> 8),    char(crc >> 16), char(crc >> 24),
                               char(length), char(length >> 8), char(type) };
            file.append(header, 7);
            file.append(fragment);
            pos += length;
        }
    } else {
        file.append(reinterpret_cast<const char*>(data), qsizetype(size));
    }
    importers::loggers::wandbRunDisplayName(std::string_view(file.constData(), std::size_t(file.size())));
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(file.constData());
    importers::loggers::LoggerImporter importer(
        writeFile("wandbrun", QStringLiteral("run-x.wandb"), bytes, std::size_t(file.size())), ArtifactKind::WandbRun);
    pollImporter(importer);
    // The same bytes arriving in two parts, as while the client writes them.
    importers::loggers::WandbRunReader reader(QStringLiteral("run-x.wandb"));
    const qsizetype half = file.size() / 2;
    reader.feed(QByteArrayView(file.constData(), half));
    reader.feed(QByteArrayView(file.constData() + reader.resumeOffset(), file.size() - reader.resumeOffset()));
    reader.takeBatch();
    reader.takeHparams();
    reader.takeDiagnostics();
}

// --- profiler tables -------------------------------------------------------------------------------------

void fuzzNpuSmi(const std::uint8_t* data, std::size_t size)
{
    const std::vector<importers::system::NpuReading> npus
        = importers::system::parseNpuSmiInfo(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    std::vector<importers::system::Metric> metrics;
    importers::system::appendNpuMetrics(npus, metrics);
}

void fuzzProjector(const std::uint8_t* data, std::size_t size)
{
    // Byte 0 picks the input: the text-format config, tensors.tsv, metadata.tsv, a whole folder whose
    // config names the input as both of its tables (then PCA and neighbours run over what was read), or a
    // TensorFlow checkpoint whose tensors the config names (a 4-byte little-endian length, that many bytes
    // of `.index`, the rest the data shard).
    const std::size_t variant = pickVariant(data, size, 5);
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    Diagnostics diagnostics;
    importers::embeddings::ProjectorLimits limits;
    limits.maxRows = 2000;
    limits.maxDims = 64;
    switch (variant) {
    case 0:
        importers::embeddings::parseProjectorConfig(bytes, QStringLiteral("projector_config.pbtxt"), diagnostics);
        break;
    case 1: {
        models::embeddings::EmbeddingSet set;
        importers::embeddings::parseTensorsTsv(bytes, QStringLiteral("tensors.tsv"), limits, set, diagnostics);
        break;
    }
    case 2: {
        models::embeddings::EmbeddingSet set;
        set.rows = 16;
        set.dims = 1;
        set.values.assign(16, 0.0f);
        importers::embeddings::parseMetadataTsv(bytes, QStringLiteral("metadata.tsv"), set, diagnostics);
        break;
    }
    case 4: {
        std::size_t indexSize = 0;
        for (std::size_t i = 0; i < 4 && i < size; ++i)
            indexSize |= std::size_t(data[i]) << (8 * i);
        const std::size_t skip = std::min<std::size_t>(4, size);
        data += skip;
        size -= skip;
        indexSize = std::min(indexSize, size);
        const QString index = writeFile("projector_checkpoint", QStringLiteral("model.ckpt-1.index"), data, indexSize);
        // writeFile empties the target's folder: the other files are written beside the index directly.
        const QDir folder = QFileInfo(index).dir();
        QFile shard(folder.filePath(QStringLiteral("model.ckpt-1.data-00000-of-00001")));
        QFile config(folder.filePath(QStringLiteral("projector_config.pbtxt")));
        QFile state(folder.filePath(QStringLiteral("checkpoint")));
        if (!shard.open(QIODevice::WriteOnly) || !config.open(QIODevice::WriteOnly)
            || !state.open(QIODevice::WriteOnly))
            return;
        shard.write(reinterpret_cast<const char*>(data + indexSize), qint64(size - indexSize));
        shard.close();
        state.write("model_checkpoint_path: \"model.ckpt-1\"\n");
        state.close();
        // The names of the fixture's bundle (tests/data/embeddings/checkpoint) and of its damaged cases.
        config.write("embeddings { tensor_name: 'embedding/weights' }\n"
                     "embeddings { tensor_name: 'word_embedding/embeddings:0' }\n"
                     "embeddings { tensor_name: 'half' } embeddings { tensor_name: 'bf16' }\n"
                     "embeddings { tensor_name: 'bad_crc' } embeddings { tensor_name: 'huge' }\n");
        config.close();
        const importers::embeddings::ProjectorReadResult read
            = importers::embeddings::readProjectorFolder(config.fileName(), limits);
        for (const models::embeddings::EmbeddingSetPtr& set : read.sets)
            models::embeddings::computePca(*set, 3);
        break;
    }
    default: {
        const QString tensors = writeFile("projector", QStringLiteral("tensors.tsv"), data, size);
        const QString config = QFileInfo(tensors).dir().filePath(QStringLiteral("projector_config.pbtxt"));
        QFile file(config);
        if (!file.open(QIODevice::WriteOnly))
            return;
        file.write("embeddings { tensor_name: 'f' tensor_path: 'tensors.tsv' metadata_path: 'tensors.tsv' }\n");
        file.close();
        const importers::embeddings::ProjectorReadResult read
            = importers::embeddings::readProjectorFolder(config, limits);
        for (const models::embeddings::EmbeddingSetPtr& set : read.sets) {
            models::embeddings::computePca(*set, 3);
            const models::embeddings::NeighbourIndex index(*set);
            index.nearest(0, 5, models::embeddings::Distance::Cosine);
            index.nearest(set->rows - 1, 5, models::embeddings::Distance::Euclidean);
        }
        break;
    }
    }
}

void fuzzLoggers(const std::uint8_t* data, std::size_t size)
{
    // Byte 0 picks the file: a metrics table (CSV, JSON lines, nvidia-smi or dcgmi, one reader), a
    // trainer_state.json, an MLflow metric file in a run folder, or a YAML file of hyper-parameters beside a table.
    switch (pickVariant(data, size, 4)) {
    case 0: {
        importers::loggers::LoggerImporter importer(writeFile("loggers", QStringLiteral("metrics.csv"), data, size),
                                                    ArtifactKind::Table);
        pollImporter(importer);
        break;
    }
    case 1: {
        importers::loggers::LoggerImporter importer(
            writeFile("loggers", QStringLiteral("trainer_state.json"), data, size), ArtifactKind::TrainerState);
        pollImporter(importer);
        const std::string_view text = asText(data, size);
        for (const std::string_view element : importers::loggers::jsonArrayElements(text, text.find('[')))
            importers::loggers::jsonTopLevelValue(element, "step");
        break;
    }
    case 2: {
        const QString folder = writeInput("loggers", QStringLiteral("run/metrics/sub/loss"), data, size);
        QFile meta(folder + QStringLiteral("/run/meta.yaml"));
        if (meta.open(QIODevice::WriteOnly))
            meta.write("run_id: abc\nexperiment_id: '0'\nartifact_uri: file:///x\nrun_name: r\n");
        meta.close();
        importers::loggers::LoggerImporter importer(meta.fileName(), ArtifactKind::MlflowRun);
        pollImporter(importer);
        break;
    }
    default: {
        const QString folder = writeInput("loggers", QStringLiteral("hparams.yaml"), data, size);
        QFile table(folder + QStringLiteral("/metrics.csv"));
        if (table.open(QIODevice::WriteOnly))
            table.write("step,loss\n0,1\n");
        table.close();
        importers::loggers::LoggerImporter importer(table.fileName(), ArtifactKind::Table);
        pollImporter(importer);
        break;
    }
    }
}

void fuzzCsvTable(const std::uint8_t* data, std::size_t size)
{
    const importers::profiler::CsvTable table
        = importers::profiler::CsvTable::parse(QByteArrayView(data, qsizetype(size)), QStringLiteral("fuzz-input.csv"));
    // Every getter over every cell: bounded by the input, since each field is at least its delimiter.
    for (int row = 0; row < table.rowCount(); ++row) {
        for (int column = 0; column < table.fieldCount(row) + 1; ++column) {
            table.text(row, column);
            table.toDouble(row, column);
            table.int64At(row, column);
        }
        table.lineOf(row);
    }
    table.column({ "Op Name", "op_name", "Task Duration(us)" });
}

void fuzzProfiler(const std::uint8_t* data, std::size_t size)
{
    // MindInsight names sit in a profiler/ folder, 2.x names in ASCEND_PROFILER_OUTPUT of an *_ascend_ms one.
    static const std::array names = {
        "profiler/aicore_intermediate_0_type.csv",
        "profiler/aicore_intermediate_0_detail.csv",
        "profiler/framework_raw_0.csv",
        "profiler/aicpu_intermediate_0.csv",
        "profiler/gpu_op_type_info_0.csv",
        "profiler/gpu_op_detail_info_0.csv",
        "profiler/cpu_op_type_info_0.csv",
        "profiler/cpu_op_detail_info_0.csv",
        "profiler/flops_0.txt",
        "profiler/step_trace_raw_0_detail_time.csv",
        "profiler/step_trace_point_info_0.json",
        "profiler/profiler_info_0.json",
        "host_1_2_ascend_ms/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
        "host_1_2_ascend_ms/ASCEND_PROFILER_OUTPUT/op_statistic.csv",
        "host_1_2_ascend_ms/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
        "host_1_2_ascend_ms/profiler_metadata.json",
    };
    const std::size_t name = pickVariant(data, size, names.size());
    importers::profiler::readProfilerDirectory(writeInput("profiler", QString::fromLatin1(names[name]), data, size));
}

void fuzzPipeline(const std::uint8_t* data, std::size_t size)
{
    const std::size_t parser = pickVariant(data, size, 8);
    const QByteArrayView bytes(data, qsizetype(size));
    const QString path = QStringLiteral("fuzz-input");
    std::vector<models::pipeline::PipelineOp> ops;
    Diagnostics diagnostics;
    int interval = 0;
    QStringList warnings;
    QStringList suggestions;
    switch (parser) {
    case 0:
        importers::pipeline::readPipelineRawCsv(bytes, path, ops, interval, diagnostics);
        break;
    case 1:
        importers::pipeline::readPipelineProfilingJson(bytes, path, ops, interval, diagnostics);
        break;
    case 2: {
        models::pipeline::HostQueue queue;
        importers::pipeline::readHostQueueText(bytes, path, queue, diagnostics);
        break;
    }
    case 3:
    case 4: {
        models::pipeline::DeviceQueue queue;
        importers::pipeline::readDeviceQueueText(bytes, path, parser == 4, queue, diagnostics);
        break;
    }
    case 5: {
        models::pipeline::CpuUtilization cpu;
        importers::pipeline::readCpuUtilizationJson(bytes, path, cpu, diagnostics);
        break;
    }
    case 6:
        importers::pipeline::readPipelineSummaryJson(bytes, path, ops, warnings, suggestions, diagnostics);
        break;
    default:
        importers::pipeline::readPipelineSummaryCsv(bytes, path, ops, warnings, suggestions, diagnostics);
        break;
    }
    for (models::pipeline::PipelineOp& op : ops)
        importers::pipeline::completeQueueFigures(op);
}

void fuzzCluster(const std::uint8_t* data, std::size_t size)
{
    static const std::array names = {
        "profiler/ascend_cluster_analyse_pipeline-parallel_2_4_0.csv",
        "profiler/step_trace_raw_0_detail_time.csv",
        "profiler/hccl_raw_0.csv",
        "profiler/flops_summary_0.json",
        "profiler/parallel_strategy.json",
        "profiler/profiler_info_0.json",
    };
    const std::size_t name = pickVariant(data, size, names.size());
    importers::cluster::MindSporeClusterReader::read(
        { writeInput("cluster", QString::fromLatin1(names[name]), data, size) });
}

// --- the scanner's sniffer -------------------------------------------------------------------------------

void fuzzSniffer(const std::uint8_t* data, std::size_t size)
{
    // Names that steer the sniffer's ties, and one taken from the input itself.
    static const std::array<const char*, 12> names = {
        "events.out.tfevents.1700000000.host",
        "events.summary.1700000000.0.host_MS",
        "events.summary.1700000000.0.host_lineage",
        "vdlrecords.1700000000.log",
        "host_123.1700000000.pt.trace.json",
        "model.onnx",
        "graph.pb",
        "graph.pbtxt",
        "kernel_graph_0.ir",
        "aicore_intermediate_0_type.csv",
        "memory_snapshot.pickle",
        "tensor.npy",
    };
    const std::size_t variant = pickVariant(data, size, names.size() + 1);
    std::string_view name;
    if (variant < names.size()) {
        name = names[variant];
    } else if (size > 0) {
        const std::size_t length = std::min<std::size_t>(data[0] % 64, size - 1);
        name = asText(data + 1, length);
        data += 1 + length;
        size -= 1 + length;
    }
    const std::string_view head = asText(data, std::min(size, FileSniffer::kLongHeadSize));
    FileSniffer::worthReading(name);
    FileSniffer::rankFromName(name);
    FileSniffer::sniff(name, "run/rank_0/profiler", head, qint64(size));
}

// --- accuracy dumps --------------------------------------------------------------------------------------

/// Everything the model offers a viewer of the dump, on whatever the reader made of the input.
void walkMsprobeDump(const models::accuracy::MsprobeDump& dump)
{
    for (const models::accuracy::DumpEntry& entry : dump.entries) {
        dump.stackOf(entry.name.full);
        dump.parentOf(entry.name.full);
        entry.name.scope();
        for (const models::accuracy::DumpRow& row : entry.rows)
            dump.tensorFilePath(row);
    }
    for (auto it = dump.parents.constBegin(); it != dump.parents.constEnd(); ++it)
        dump.stackOf(it.key());
    dump.rowCount();
}

void fuzzMsprobe(const std::uint8_t* data, std::size_t size)
{
    // Byte 0 picks the file the input is: dump.json, or construct.json or stack.json beside a small dump.json.
    static const char kDump[] = R"j({"task": "tensor", "level": "mix", "framework": "pytorch", "data": {
        "Module.fc.Linear.forward.0": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32",
          "shape": [2], "Max": 1, "Min": 0, "Mean": 0.5, "Norm": 1, "data_name": "a.pt"}], "output": []},
        "Module.fc.Linear.backward.0": {"input": [], "output": [null]},
        "Torch.abs.0.backward": {"input": [], "output": []}}})j";
    const std::size_t file = pickVariant(data, size, 3);
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    importers::accuracy::MsprobeDumpFiles files;
    files.folder = QStringLiteral("/fuzz");
    files.dumpPath = QStringLiteral("/fuzz/dump.json");
    files.constructPath = QStringLiteral("/fuzz/construct.json");
    files.stackPath = QStringLiteral("/fuzz/stack.json");
    files.tensorFileNames = { QStringLiteral("a.pt"), QStringLiteral("b.pt") };
    files.dumpJson = file == 0 ? bytes : QByteArray(kDump);
    if (file == 1)
        files.constructJson = bytes;
    if (file == 2)
        files.stackJson = bytes;
    const importers::accuracy::MsprobeReadResult result = importers::accuracy::parseMsprobeDump(files);
    walkMsprobeDump(*result.dump);
    // The importer turns every dump into a graph: shapes, statistics and the module tree of the input go
    // through the converter too.
    models::accuracy::buildDumpGraph(*result.dump);
    if (file == 0 && size < 4096)
        models::accuracy::parseEntryName(QString::fromUtf8(bytes));
}

void fuzzRankDigest(const std::uint8_t* data, std::size_t size)
{
    // Byte 0: 0 the bytes are a whole .rldigest file; 1 they are a version 1 JSON body, framed and compressed
    // here so that mutations reach the body's reader rather than dying in zlib; 2 they are a version 2
    // binary body, framed here so that the header's length always matches. A digest read is assembled into
    // a cluster (as the desktop does with a folder) and written again, in both versions.
    if (size == 0)
        return;
    const QByteArray rest(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    QByteArray file = rest;
    const auto frame = [](quint32 version, quint64 length) {
        QByteArray header("RLDIGEST", 8);
        char fields[16];
        qToLittleEndian<quint32>(version, fields);
        qToLittleEndian<quint32>(0, fields + 4);
        qToLittleEndian<quint64>(length, fields + 8);
        header.append(fields, sizeof fields);
        return header;
    };
    if (data[0] % 3 == 1) {
        // qCompress: 4 bytes of length (big-endian), then one zlib stream.
        file = frame(1, quint64(rest.size())) + qCompress(rest).mid(4);
    } else if (data[0] % 3 == 2) {
        file = frame(2, quint64(rest.size())) + rest;
    }
    const importers::cluster::RankDigestResult read
        = importers::cluster::decodeRankDigest(file, QStringLiteral("rank-0.rldigest"));
    if (!read.digest)
        return;
    const models::cluster::Cluster assembled = models::cluster::clusterFromDigests({ read.digest, read.digest });
    (void)assembled;
    (void)importers::cluster::encodeRankDigest(*read.digest);
    (void)importers::cluster::encodeRankDigest(*read.digest, 1);
}

void fuzzCompareMapping(const std::uint8_t* data, std::size_t size)
{
    // A mapping file (JSON or YAML), then matching two small sides through it: the names the mapping makes
    // up go through the entry name parser and the call counter alignment.
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    QString error;
    const std::optional<models::accuracy::NameMapping> mapping = models::accuracy::NameMapping::parse(bytes, &error);
    if (!mapping)
        return;
    auto side = [](const QStringList& ops) {
        models::accuracy::DumpSide s;
        for (const QString& op : ops) {
            models::accuracy::SideRow row;
            row.op = op;
            row.opIndex = int(s.ops.size());
            row.name = op + QStringLiteral(".output.0");
            row.kind = models::accuracy::RowKind::Output;
            s.rows << row;
            // Inputs too, so api_mapping argument slots are translated.
            for (const char* slot : { ".input.0", ".input.1", ".input.k", ".parameters.weight" }) {
                row.name = op + QLatin1String(slot);
                row.kind = models::accuracy::RowKind::Input;
                s.rows << row;
            }
            s.ops << op;
        }
        return s;
    };
    QStringList targetOps = mapping->rows.keys().mid(0, 16) + mapping->classes.keys().mid(0, 4);
    for (const QString& api : mapping->apis.keys().mid(0, 8))
        targetOps << api + QStringLiteral(".0.forward") << api + QStringLiteral(".1.forward");
    for (const auto& piece : mapping->modules.mid(0, 8))
        targetOps << QStringLiteral("Cell.%1.Dense.forward.0").arg(piece.first);
    QStringList benchOps = mapping->rows.values().mid(0, 16);
    for (const QString& api : mapping->apis.values().mid(0, 8))
        benchOps << api + QStringLiteral(".1.forward");
    models::accuracy::DumpSide bench = side(benchOps);
    models::accuracy::DumpSide target = side(targetOps);
    bench.framework = models::accuracy::DumpFramework::PyTorch;
    target.framework = models::accuracy::DumpFramework::MindSpore;
    const models::accuracy::MatchResult match = models::accuracy::matchSides(bench, target, *mapping);
    QList<models::accuracy::CompareRow> rows;
    for (const models::accuracy::MatchedPair& pair : match.pairs) {
        models::accuracy::CompareRow row;
        row.op = target.rows[pair.target].op;
        row.kind = models::accuracy::RowKind::Output;
        row.verdict = models::accuracy::Verdict::Warning;
        rows << row;
    }
    models::accuracy::findDivergence(rows);
}

constexpr FuzzTarget kTargets[] = {
    { "tfrecord", fuzzTfRecord, "TFRecord framing (in memory and through RecordReader)" },
    { "eventfile", fuzzEventFile, "TensorBoard event file (EventFileReader)" },
    { "mssummary", fuzzMindSporeSummary, "MindSpore summary file (EventFileReader, MindSpore flavour)" },
    { "visualdl", fuzzVisualDl, "VisualDL log (VisualDlReader)" },
    { "lineage", fuzzLineage, "MindSpore lineage file (LineageReader)" },
    { "summaryvalues", fuzzSummaryValues, "summary value decoders; byte 0 picks the decoder" },
    { "onnx", fuzzOnnx, "ONNX ModelProto (OnnxGraphReader)" },
    { "tfgraph", fuzzTfGraph, "TensorFlow GraphDef, binary (TfGraphReader::readGraphDef)" },
    { "tfgraphtext", fuzzTfGraphText, "TensorFlow GraphDef, text format (TfGraphReader::readText)" },
    { "anfir", fuzzAnfIr, "MindSpore anf_ir .pb (AnfIrGraphReader)" },
    { "mindsporeir", fuzzMindSporeIr, "MindSpore text IR (MindSporeIrReader)" },
    { "dot", fuzzDot, "Graphviz dot (DotGraphReader)" },
    { "torchscript", fuzzTorchScript, "TorchScript / torch.fx graph text (TorchScriptReader)" },
    { "parallelstrategy", fuzzParallelStrategy,
      "MindSpore parallel strategy JSON, profiler or checkpoint (ParallelStrategyReader)" },
    { "paddle", fuzzPaddle, "Paddle ProgramDesc .pdmodel / __model__ and PIR JSON (PaddleGraphReader)" },
    { "paddleparams", fuzzPaddleParams, "Paddle combined parameter file .pdiparams (indexPaddleParams)" },
    { "mindir", fuzzMindIr, "MindSpore MindIR .mindir ModelProto (MindIrGraphReader)" },
    { "visualdlgraph", fuzzVisualDlGraph, "VisualDL add_graph JSON vdlgraph.*.log (VisualDlGraphReader)" },
    { "savedmodel", fuzzSavedModel, "TF saved_model.pb and .meta MetaGraphDef (SavedModelReader)" },
    { "tfcheckpointindex", fuzzTfCheckpointIndex, "TF checkpoint variables.index table (readTfCheckpointIndex)" },
    { "tflite", fuzzTfLite, "TensorFlow Lite flatbuffer .tflite (TfLiteGraphReader)" },
    { "chrometrace", fuzzChromeTrace, "Chrome trace JSON or gzip (ChromeTraceReader) and its memory events" },
    { "digestpass", fuzzDigestPass,
      "rank digest single pass (digestTraceSinglePass) against the store path: any difference aborts" },
    { "traceindex", fuzzTraceIndex, "trace index cache (TraceStoreCodec::read), version and checksum unchecked" },
    { "memorytimeline", fuzzMemoryTimeline, "torch export_memory_timeline output" },
    { "msmemory", fuzzMindSporeMemory, "MindSpore memory files; byte 0 picks the file name" },
    { "pickle", fuzzPickle, "data-only pickle decoder" },
    { "cudasnapshot", fuzzCudaSnapshot, "PyTorch CUDA memory snapshot" },
    { "npyheader", fuzzNpyHeader, ".npy header parser" },
    { "wav", fuzzWav, "WAV clip decoder (summary::wav::decode) and the spectrogram of its first channel" },
    { "npy", fuzzNpy, ".npy opened, statistics and a strided view" },
    { "npz", fuzzNpz, ".npz listed, statistics and strided views" },
    { "safetensors", fuzzSafetensors, ".safetensors listed, statistics and strided views" },
    { "pt", fuzzPt, "torch.save .pt listed (weights-only pickle), statistics and strided views" },
    { "loggers", fuzzLoggers,
      "other loggers' scalars (LoggerImporter); byte 0 picks table, trainer state, MLflow or YAML" },
    { "csvtable", fuzzCsvTable, "profiler CSV tables (CsvTable) with every getter" },
    { "profiler", fuzzProfiler, "MindSpore profiler folder readers; byte 0 picks the file" },
    { "pipeline", fuzzPipeline, "MindData pipeline file parsers; byte 0 picks the parser" },
    { "cluster", fuzzCluster, "MindSpore cluster readers; byte 0 picks the file" },
    { "sniffer", fuzzSniffer, "FileSniffer; byte 0 picks the file name (or takes it from the input)" },
    { "msprobe", fuzzMsprobe, "msprobe dump (parseMsprobeDump); byte 0 picks dump.json, construct.json or stack.json" },
    { "rankdigest", fuzzRankDigest,
      "rank digest files (decodeRankDigest); byte 0: whole file, version 1 JSON body or version 2 binary body" },
    { "wandbrun", fuzzWandbRun, "W&B run file (WandbRunReader); byte 0: whole file, records, or framed fragments" },
    { "projector", fuzzProjector,
      "TensorBoard projector folder: byte 0 picks projector_config.pbtxt, tensors.tsv, metadata.tsv or a folder" },
    { "npusmi", fuzzNpuSmi, "Ascend `npu-smi info` table (parseNpuSmiInfo)" },
    { "comparemapping", fuzzCompareMapping,
      "runlens compare mapping file (NameMapping::parse) and matching through it" },
};

void quietMessages(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    if (type == QtFatalMsg) {
        fprintf(stderr, "%s\n", qPrintable(message));
        std::abort();
    }
}

} // namespace

std::span<const FuzzTarget> fuzzTargets()
{
    return kTargets;
}

const FuzzTarget* findFuzzTarget(std::string_view name)
{
    for (const FuzzTarget& target : kTargets) {
        if (name == target.name)
            return &target;
    }
    return nullptr;
}

void initializeFuzzing()
{
    if (qEnvironmentVariableIsEmpty("RUNLENS_FUZZ_VERBOSE"))
        qInstallMessageHandler(quietMessages);
    scratchDir();
}

} // namespace runlens::fuzz
