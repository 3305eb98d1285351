#include "importers/embeddings/projectorreader.h"

#include "importers/embeddings/checkpointembedding.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace runlens::importers::embeddings {

namespace {

/// The translation context of the projector reader's messages.
struct ProjectorTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::embeddings::ProjectorReader)
};

// Nesting deeper than any ProjectorConfig has; deeper input is hostile and is not followed.
constexpr int kMaxDepth = 32;
// Per file, only the first few bad values are listed; the rest are counted.
constexpr int kMaxListedProblems = 5;
// More metadata columns than anyone reads; a wider header is cut there so rows stay small.
constexpr int kMaxMetadataColumns = 256;
// A projector config is a few lines per embedding; anything much larger is not one.
constexpr qint64 kMaxConfigBytes = 16 * 1024 * 1024;

models::Diagnostic problem(models::Severity severity, const QString& path, qint64 line, const QString& message)
{
    models::Diagnostic d;
    d.severity = severity;
    d.file = path;
    d.line = line;
    d.message = message;
    return d;
}

/// Splits text-format protobuf into tokens: names, strings, numbers and the punctuation : { } < > [ ] ,
class TextTokenizer
{
public:
    explicit TextTokenizer(const QByteArray& text)
        : m_text(text.constData(), std::size_t(text.size()))
    { }

    enum class Kind { End, Name, String, Number, Punct, Bad };
    struct Token
    {
        Kind kind = Kind::End;
        std::string value;
        qint64 line = 1;
    };

    Token next()
    {
        skipSpace();
        Token token;
        token.line = m_line;
        if (m_at >= m_text.size())
            return token;
        const char c = m_text[m_at];
        if (c == '"' || c == '\'') {
            token.kind = Kind::String;
            ++m_at;
            while (m_at < m_text.size() && m_text[m_at] != c) {
                char ch = m_text[m_at++];
                if (ch == '\n') {
                    token.kind = Kind::Bad;
                    ++m_line;
                    return token;
                }
                if (ch == '\\' && m_at < m_text.size()) {
                    ch = m_text[m_at++];
                    switch (ch) {
                    case 'n':
                        ch = '\n';
                        break;
                    case 't':
                        ch = '\t';
                        break;
                    default:
                        break; // \" \\ \' stay as the character
                    }
                }
                token.value.push_back(ch);
            }
            if (m_at >= m_text.size()) {
                token.kind = Kind::Bad;
                return token;
            }
            ++m_at;
            return token;
        }
        if (std::string_view(":{}<>[],;").find(c) != std::string_view::npos) {
            token.kind = Kind::Punct;
            token.value = std::string(1, c);
            ++m_at;
            return token;
        }
        const bool number = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
        const bool name = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!number && !name) {
            token.kind = Kind::Bad;
            token.value = std::string(1, c);
            ++m_at;
            return token;
        }
        token.kind = number ? Kind::Number : Kind::Name;
        while (m_at < m_text.size()) {
            const char ch = m_text[m_at];
            const bool part = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
                || ch == '_' || ch == '.' || ch == '-' || ch == '+';
            if (!part)
                break;
            token.value.push_back(ch);
            ++m_at;
        }
        return token;
    }

private:
    void skipSpace()
    {
        while (m_at < m_text.size()) {
            const char c = m_text[m_at];
            if (c == '\n') {
                ++m_line;
                ++m_at;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++m_at;
            } else if (c == '#') {
                while (m_at < m_text.size() && m_text[m_at] != '\n')
                    ++m_at;
            } else {
                break;
            }
        }
    }

    std::string_view m_text;
    std::size_t m_at = 0;
    qint64 m_line = 1;
};

void assignField(ProjectorConfig& config, const std::vector<std::string>& scope, const std::string& field,
                 const TextTokenizer::Token& value, const QString& path, models::Diagnostics& diagnostics)
{
    const QString text = QString::fromStdString(value.value);
    auto number = [&]() -> qint64 {
        qint64 v = 0;
        const auto [end, ec] = std::from_chars(value.value.data(), value.value.data() + value.value.size(), v);
        if (ec != std::errc() || end != value.value.data() + value.value.size() || v < 0) {
            diagnostics.append(
                problem(models::Severity::Warning, path, value.line,
                        ProjectorTr::tr("%1 is not a size: %2").arg(QString::fromStdString(field), text)));
            return -1;
        }
        return v;
    };
    if (scope.empty()) {
        if (field == "model_checkpoint_path")
            config.modelCheckpointPath = text;
        else if (field == "model_checkpoint_dir")
            config.modelCheckpointDir = text;
        return;
    }
    if (scope.front() != "embeddings" || config.embeddings.empty())
        return;
    ProjectorEmbeddingConfig& e = config.embeddings.back();
    if (scope.size() == 1) {
        if (field == "tensor_name")
            e.tensorName = text;
        else if (field == "tensor_path")
            e.tensorPath = text;
        else if (field == "metadata_path")
            e.metadataPath = text;
        else if (field == "tensor_shape")
            e.tensorShape.push_back(number());
    } else if (scope.size() == 2 && scope[1] == "sprite") {
        if (field == "image_path") {
            e.spritePath = text;
        } else if (field == "single_image_dim") {
            const qint64 v = number();
            if (v < 0 || v > 65536)
                return;
            // Written as [width, height], as torch's add_embedding and TensorBoard's demo do.
            if (e.spriteImageSize.width() <= 0)
                e.spriteImageSize.setWidth(int(v));
            else
                e.spriteImageSize.setHeight(int(v));
        }
    }
}

/// One line of a TSV, split on tabs (a trailing carriage return removed).
std::vector<std::string_view> splitTabs(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    std::vector<std::string_view> cells;
    std::size_t start = 0;
    while (true) {
        const std::size_t tab = line.find('\t', start);
        if (tab == std::string_view::npos) {
            cells.push_back(line.substr(start));
            break;
        }
        cells.push_back(line.substr(start, tab - start));
        start = tab + 1;
    }
    return cells;
}

bool parseFloat(std::string_view cell, float& out)
{
    while (!cell.empty() && (cell.front() == ' '))
        cell.remove_prefix(1);
    while (!cell.empty() && (cell.back() == ' '))
        cell.remove_suffix(1);
    if (!cell.empty() && cell.front() == '+')
        cell.remove_prefix(1);
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), out);
    return ec == std::errc() && end == cell.data() + cell.size() && !cell.empty() && std::isfinite(out);
}

QString resolve(const QDir& folder, const QString& path)
{
    return QDir::cleanPath(QDir::isAbsolutePath(path) ? path : folder.filePath(path));
}

/// `namedBy` is the config that names the file (empty for the config itself): messages name it too.
bool readFile(const QString& path, qint64 limit, QByteArray& out, models::Diagnostics& diagnostics,
              const QString& namedBy = {})
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        diagnostics.append(problem(models::Severity::Error, path, -1,
                                   namedBy.isEmpty()
                                       ? ProjectorTr::tr("cannot open: %1").arg(file.errorString())
                                       : ProjectorTr::tr("cannot open: %1 (named by %2)")
                                             .arg(file.errorString(), QDir::toNativeSeparators(namedBy))));
        return false;
    }
    if (file.size() > limit) {
        diagnostics.append(problem(
            models::Severity::Error, path, -1,
            ProjectorTr::tr("%1 bytes is more than the %2 bytes read for such a file").arg(file.size()).arg(limit)));
        return false;
    }
    out = file.readAll();
    return true;
}

} // namespace

ProjectorConfig parseProjectorConfig(const QByteArray& text, const QString& path, models::Diagnostics& diagnostics)
{
    ProjectorConfig config;
    TextTokenizer tokens(text);
    std::vector<std::string> scope;
    using Kind = TextTokenizer::Kind;
    auto fail = [&](qint64 line, const QString& message) {
        diagnostics.append(problem(models::Severity::Warning, path, line, message));
    };
    while (true) {
        TextTokenizer::Token token = tokens.next();
        if (token.kind == Kind::End)
            break;
        if (token.kind == Kind::Punct && (token.value == "}" || token.value == ">")) {
            if (scope.empty()) {
                fail(token.line,
                     ProjectorTr::tr("unbalanced '%1'; the rest of the file is not read")
                         .arg(QString::fromStdString(token.value)));
                return config;
            }
            scope.pop_back();
            continue;
        }
        if (token.kind == Kind::Punct && (token.value == "," || token.value == ";"))
            continue;
        if (token.kind != Kind::Name) {
            fail(token.line, ProjectorTr::tr("expected a field name; the rest of the file is not read"));
            return config;
        }
        const std::string field = token.value;
        TextTokenizer::Token after = tokens.next();
        if (after.kind == Kind::Punct && after.value == ":")
            after = tokens.next();
        if (after.kind == Kind::Punct && (after.value == "{" || after.value == "<")) {
            if (int(scope.size()) >= kMaxDepth) {
                fail(after.line,
                     ProjectorTr::tr("nested deeper than %1 levels; the rest of the file is not read").arg(kMaxDepth));
                return config;
            }
            if (scope.empty() && field == "embeddings")
                config.embeddings.emplace_back();
            scope.push_back(field);
            continue;
        }
        if (after.kind == Kind::Punct && after.value == "[") {
            // A list value: `single_image_dim: [28, 28]`.
            while (true) {
                TextTokenizer::Token item = tokens.next();
                if (item.kind == Kind::Punct && item.value == "]")
                    break;
                if (item.kind == Kind::Punct && item.value == ",")
                    continue;
                if (item.kind != Kind::Number && item.kind != Kind::String && item.kind != Kind::Name) {
                    fail(item.line, ProjectorTr::tr("unterminated list; the rest of the file is not read"));
                    return config;
                }
                assignField(config, scope, field, item, path, diagnostics);
            }
            continue;
        }
        if (after.kind == Kind::String || after.kind == Kind::Number || after.kind == Kind::Name) {
            assignField(config, scope, field, after, path, diagnostics);
            continue;
        }
        fail(after.line,
             ProjectorTr::tr("no value for field %1; the rest of the file is not read")
                 .arg(QString::fromStdString(field)));
        return config;
    }
    if (!scope.empty())
        fail(-1, ProjectorTr::tr("the file ends inside '%1 {'").arg(QString::fromStdString(scope.back())));
    return config;
}

void parseTensorsTsv(const QByteArray& text, const QString& path, const ProjectorLimits& limits,
                     models::embeddings::EmbeddingSet& set, models::Diagnostics& diagnostics)
{
    set.rows = 0;
    set.dims = 0;
    set.values.clear();
    const std::string_view all(text.constData(), std::size_t(text.size()));
    std::size_t at = 0;
    qint64 line = 0;
    int badValues = 0;
    while (at < all.size()) {
        std::size_t end = all.find('\n', at);
        if (end == std::string_view::npos)
            end = all.size();
        const std::string_view lineText = all.substr(at, end - at);
        at = end + 1;
        ++line;
        if (lineText.empty() || lineText == "\r")
            continue;
        const std::vector<std::string_view> cells = splitTabs(lineText);
        if (set.dims == 0) {
            if (int(cells.size()) > limits.maxDims) {
                diagnostics.append(problem(models::Severity::Warning, path, line,
                                           ProjectorTr::tr("%1 dimensions; only the first %2 are read")
                                               .arg(cells.size())
                                               .arg(limits.maxDims)));
            }
            set.dims = std::min(int(cells.size()), limits.maxDims);
        } else if (int(std::min<std::size_t>(cells.size(), std::size_t(limits.maxDims))) != set.dims) {
            diagnostics.append(problem(models::Severity::Warning, path, line,
                                       ProjectorTr::tr("%1 values where the lines before have %2; the table ends "
                                                       "before this line")
                                           .arg(cells.size())
                                           .arg(set.dims)));
            break;
        }
        if (set.rows >= limits.maxRows || qint64(set.rows + 1) * set.dims > limits.maxValues) {
            diagnostics.append(
                problem(models::Severity::Warning, path, line,
                        ProjectorTr::tr("more points than the %1 read; the rest are left out").arg(set.rows)));
            break;
        }
        for (int c = 0; c < set.dims; ++c) {
            float value = 0.0f;
            if (!parseFloat(cells[std::size_t(c)], value)) {
                if (badValues < kMaxListedProblems) {
                    diagnostics.append(
                        problem(models::Severity::Warning, path, line,
                                ProjectorTr::tr("value %1 of the line is not a finite number (%2); it reads as 0")
                                    .arg(c + 1)
                                    .arg(QString::fromUtf8(
                                        cells[std::size_t(c)].data(),
                                        qsizetype(std::min<std::size_t>(cells[std::size_t(c)].size(), 40))))));
                }
                ++badValues;
                value = 0.0f;
            }
            set.values.push_back(value);
        }
        ++set.rows;
    }
    if (badValues > kMaxListedProblems) {
        diagnostics.append(
            problem(models::Severity::Warning, path, -1,
                    ProjectorTr::tr("%1 values in all were not finite numbers and read as 0").arg(badValues)));
    }
}

void parseMetadataTsv(const QByteArray& text, const QString& path, models::embeddings::EmbeddingSet& set,
                      models::Diagnostics& diagnostics)
{
    set.metadataColumns.clear();
    set.metadata.clear();
    QList<QByteArray> lines = text.split('\n');
    // The text ends with a newline: the last piece is empty and is no row.
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    if (lines.isEmpty())
        return;
    auto cellsOf = [](const QByteArray& line) {
        QStringList cells;
        for (std::string_view cell : splitTabs(std::string_view(line.constData(), std::size_t(line.size()))))
            cells.append(QString::fromUtf8(cell.data(), qsizetype(cell.size())));
        return cells;
    };
    const QStringList first = cellsOf(lines.first());
    int firstRow = 0;
    if (first.size() > 1) {
        set.metadataColumns = first.mid(0, kMaxMetadataColumns);
        firstRow = 1;
        if (first.size() > kMaxMetadataColumns) {
            diagnostics.append(problem(models::Severity::Warning, path, 1,
                                       ProjectorTr::tr("%1 metadata columns; only the first %2 are read")
                                           .arg(first.size())
                                           .arg(kMaxMetadataColumns)));
        }
    } else {
        set.metadataColumns = { ProjectorTr::tr("label") };
    }
    const int columns = int(set.metadataColumns.size());
    const int available = int(lines.size()) - firstRow;
    if (available != set.rows) {
        diagnostics.append(problem(models::Severity::Warning, path, -1,
                                   ProjectorTr::tr("%1 metadata rows for %2 points; %3")
                                       .arg(available)
                                       .arg(set.rows)
                                       .arg(available > set.rows ? ProjectorTr::tr("the extra rows are left out")
                                                                 : ProjectorTr::tr("the missing rows read as empty"))));
    }
    set.metadata.reserve(std::size_t(set.rows));
    int reportedWidth = 0;
    for (int r = 0; r < set.rows; ++r) {
        QStringList cells = r < available ? cellsOf(lines.at(firstRow + r)) : QStringList();
        if (r < available && cells.size() != columns && reportedWidth++ < kMaxListedProblems) {
            diagnostics.append(
                problem(models::Severity::Warning, path, firstRow + r + 1,
                        ProjectorTr::tr("%1 cells where the header names %2 columns").arg(cells.size()).arg(columns)));
        }
        cells.resize(columns);
        set.metadata.push_back(std::move(cells));
    }
}

ProjectorReadResult readProjectorFolder(const QString& configPath, const ProjectorLimits& limits,
                                        const ImportControl& control)
{
    ProjectorReadResult result;
    QByteArray configText;
    if (!readFile(configPath, kMaxConfigBytes, configText, result.diagnostics))
        return result;
    const ProjectorConfig config = parseProjectorConfig(configText, configPath, result.diagnostics);
    const QDir folder = QFileInfo(configPath).absoluteDir();
    const int count = int(std::min<std::size_t>(config.embeddings.size(), std::size_t(limits.maxEmbeddings)));
    if (int(config.embeddings.size()) > count) {
        result.diagnostics.append(problem(
            models::Severity::Warning, configPath, -1,
            ProjectorTr::tr("%1 embeddings; only the first %2 are read").arg(config.embeddings.size()).arg(count)));
    }
    bool checkpointSearched = false;
    std::optional<CheckpointTensorReader> checkpoint;
    for (int i = 0; i < count; ++i) {
        if (control.canceled()) {
            result.canceled = true;
            return result;
        }
        const ProjectorEmbeddingConfig& e = config.embeddings[std::size_t(i)];
        auto set = std::make_shared<models::embeddings::EmbeddingSet>();
        if (e.tensorPath.isEmpty()) {
            if (e.tensorName.isEmpty()) {
                result.diagnostics.append(
                    problem(models::Severity::Warning, configPath, -1,
                            ProjectorTr::tr("embedding %1 has neither tensor_path nor tensor_name").arg(i + 1)));
                continue;
            }
            // The tensor is a variable of the run's checkpoint, found once for all such embeddings.
            if (!checkpointSearched) {
                checkpointSearched = true;
                const QString prefix = findProjectorCheckpoint(config, configPath, result.diagnostics);
                if (!prefix.isEmpty())
                    checkpoint.emplace(prefix);
            }
            if (!checkpoint) {
                result.diagnostics.append(
                    problem(models::Severity::Warning, configPath, -1,
                            ProjectorTr::tr("embedding %1 has no tensor_path and no checkpoint was found to read it "
                                            "from")
                                .arg(e.tensorName)));
                continue;
            }
            set->name = e.tensorName;
            if (!checkpoint->read(e.tensorName, limits, *set, result.diagnostics))
                continue;
        } else {
            set->name = e.tensorName.isEmpty() ? e.tensorPath : e.tensorName;
            set->source = resolve(folder, e.tensorPath);
            QByteArray tensors;
            if (!readFile(set->source, limits.maxValues * 48, tensors, result.diagnostics, configPath))
                continue;
            parseTensorsTsv(tensors, set->source, limits, *set, result.diagnostics);
        }
        if (set->rows == 0) {
            result.diagnostics.append(
                problem(models::Severity::Warning, set->source, -1, ProjectorTr::tr("no points")));
            continue;
        }
        if (!e.metadataPath.isEmpty()) {
            const QString metadataPath = resolve(folder, e.metadataPath);
            QByteArray metadata;
            if (readFile(metadataPath, 2LL * 1024 * 1024 * 1024 - 1, metadata, result.diagnostics, configPath))
                parseMetadataTsv(metadata, metadataPath, *set, result.diagnostics);
        }
        if (!e.spritePath.isEmpty()) {
            const QString spritePath = resolve(folder, e.spritePath);
            if (QFileInfo::exists(spritePath)) {
                set->spritePath = spritePath;
                set->spriteImageSize = e.spriteImageSize;
            } else {
                result.diagnostics.append(problem(models::Severity::Warning, spritePath, -1,
                                                  ProjectorTr::tr("the sprite image named by %1 does not exist")
                                                      .arg(QDir::toNativeSeparators(configPath))));
            }
        }
        result.sets.push_back(std::move(set));
        control.report(int(1000LL * (i + 1) / std::max(1, count)));
    }
    return result;
}

ProjectorImporter::ProjectorImporter(QString configPath)
    : m_path(std::move(configPath))
{ }

ImportUpdate ProjectorImporter::poll(const ImportControl& control)
{
    ImportUpdate update;
    ProjectorReadResult read = readProjectorFolder(m_path, {}, control);
    update.diagnostics = read.diagnostics;
    if (read.canceled)
        update.status = models::ImportStatus::Canceled;
    else if (read.sets.empty() && !read.diagnostics.isEmpty())
        update.status = models::ImportStatus::Failed;
    else if (!read.diagnostics.isEmpty())
        update.status = models::ImportStatus::Partial;
    QList<models::embeddings::EmbeddingSummary> summaries;
    for (const models::embeddings::EmbeddingSetPtr& set : read.sets)
        summaries.append(models::embeddings::summarize(*set));
    update.embeddingSummaries = summaries;
    update.embeddings = std::make_shared<const std::vector<models::embeddings::EmbeddingSetPtr>>(std::move(read.sets));
    update.recordsRead = summaries.size();
    return update;
}

} // namespace runlens::importers::embeddings
