#include "importers/accuracy/msprobedumpreader.h"

#include "importers/core/importbudget.h"
#include "importers/core/jsonscan.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

namespace runlens::importers::accuracy {

namespace {

using Json = nlohmann::ordered_json;

// Messages are translated in the context "runlens::accuracy". QCoreApplication::translate is spelled out rather
// than wrapped in a tr() helper: lupdate would file a helper's strings under the calling class instead.

constexpr int kDetailedWarnings = 20; // per dump; the rest are counted in one message
constexpr int kCancelCheckEvery = 64; // entries between looks at the cancel flag

/// Thrown from the parse callback to stop parsing when the user cancels.
struct Canceled
{
};

QString fromStd(const std::string& text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString jsonText(const Json& value)
{
    if (value.is_string())
        return fromStd(value.get_ref<const std::string&>());
    return fromStd(value.dump(-1, ' ', false, Json::error_handler_t::replace));
}

/// msprobe writes NaN and ±Inf as Python's json does: bare NaN, Infinity and -Infinity, which no strict
/// parser takes. Outside strings they become the strings "NaN", "Infinity" and "-Infinity" (which the
/// statistics readers turn back into numbers); `inserted` holds where, so parser offsets map back.
struct Sanitized
{
    QByteArray text;
    std::vector<qint64> inserted; ///< offsets in `text` of each replacement (each adds two quote bytes)

    qint64 originalOffset(qint64 offset) const
    {
        const auto before = std::lower_bound(inserted.begin(), inserted.end(), offset) - inserted.begin();
        return offset - 2 * qint64(before);
    }
};

Sanitized sanitizeNonFinite(const QByteArray& input)
{
    Sanitized out;
    const char* data = input.constData();
    const qsizetype size = input.size();
    bool inString = false;
    qsizetype copiedUpTo = 0;
    auto matches = [&](qsizetype at, std::string_view word) {
        return size - at >= qsizetype(word.size()) && std::string_view(data + at, word.size()) == word;
    };
    for (qsizetype i = 0; i < size; ++i) {
        const char c = data[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        std::string_view word;
        if (c == 'N' && matches(i, "NaN"))
            word = "NaN";
        else if (c == 'I' && matches(i, "Infinity"))
            word = "Infinity";
        else if (c == '-' && matches(i, "-Infinity"))
            word = "-Infinity";
        if (word.empty())
            continue;
        if (out.text.isEmpty())
            out.text.reserve(size + 64);
        out.text.append(data + copiedUpTo, i - copiedUpTo);
        out.inserted.push_back(out.text.size());
        out.text.append('"');
        out.text.append(word.data(), qsizetype(word.size()));
        out.text.append('"');
        i += qsizetype(word.size()) - 1;
        copiedUpTo = i + 1;
    }
    if (out.inserted.empty())
        out.text = input;
    else
        out.text.append(data + copiedUpTo, size - copiedUpTo);
    return out;
}

std::optional<double> nonFiniteFromText(const std::string& text)
{
    if (text == "NaN" || text == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "Infinity" || text == "inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-Infinity" || text == "-inf")
        return -std::numeric_limits<double>::infinity();
    return std::nullopt;
}

const Json* member(const Json& object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
}

QString stripDataExtension(const QString& dataName)
{
    for (const QLatin1String ext : { QLatin1String(".pt"), QLatin1String(".npy") })
        if (dataName.endsWith(ext))
            return dataName.chopped(ext.size());
    return dataName;
}

class DumpParser
{
public:
    DumpParser(const MsprobeDumpFiles& files, const ImportControl& control, MsprobeReadResult& result,
               models::accuracy::MsprobeDump& dump)
        : m_files(files)
        , m_control(control)
        , m_result(result)
        , m_dump(dump)
    { }

    void run()
    {
        m_dump.folder = m_files.folder;
        if (!parseDumpJson())
            return;
        m_control.report(700);
        if (m_files.constructJson)
            parseConstruct(*m_files.constructJson);
        if (m_control.canceled())
            return cancel();
        m_control.report(800);
        if (m_files.stackJson)
            parseStacks(*m_files.stackJson);
        if (m_control.canceled())
            return cancel();
        m_control.report(900);
        matchTensorFiles();
        finishWarnings();
        m_control.report(1000);
    }

private:
    // --- diagnostics -----------------------------------------------------------------------------------

    void add(models::Severity severity, const QString& file, const QString& message, qint64 offset = -1)
    {
        m_result.diagnostics.append({ severity, file, offset, -1, message });
        if (severity != models::Severity::Info && m_result.status == models::ImportStatus::Ok)
            m_result.status = models::ImportStatus::Partial;
    }

    /// A problem with one entry or value: detailed for the first few, counted for the rest.
    void warn(const QString& file, const QString& message)
    {
        if (++m_warnings <= kDetailedWarnings)
            add(models::Severity::Warning, file, message);
        else if (m_result.status == models::ImportStatus::Ok)
            m_result.status = models::ImportStatus::Partial;
    }

    void finishWarnings()
    {
        if (m_warnings > kDetailedWarnings)
            add(models::Severity::Warning, m_files.dumpPath,
                QCoreApplication::translate(
                    "runlens::accuracy",
                    "%1 more problems with entries or values of this dump were skipped the same way")
                    .arg(m_warnings - kDetailedWarnings));
    }

    void cancel()
    {
        m_result.status = models::ImportStatus::Canceled;
        add(models::Severity::Info, m_files.dumpPath,
            QCoreApplication::translate("runlens::accuracy", "reading was canceled; the entries read before are kept"));
        m_result.status = models::ImportStatus::Canceled;
    }

    void parseError(const QString& file, const nlohmann::json::exception& error, qint64 fileSize,
                    const Sanitized* sanitized)
    {
        qint64 offset = -1;
        if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error); parse && parse->byte > 0) {
            offset = qint64(parse->byte) - 1;
            if (sanitized)
                offset = sanitized->originalOffset(offset);
            offset = std::clamp<qint64>(offset, 0, fileSize);
        }
        add(models::Severity::Error, file,
            QCoreApplication::translate("runlens::accuracy", "not valid JSON: %1").arg(QString::fromUtf8(error.what())),
            offset);
    }

    /// Checks nesting and size against a budget of the file's size; false (with an error) when over.
    bool withinBudget(const QString& file, const QByteArray& text, qint64 fileSize, const Sanitized* sanitized)
    {
        ImportBudget budget(fileSize);
        const std::int64_t overrun
            = scanJsonLimits(std::string_view(text.constData(), std::size_t(text.size())), budget);
        if (overrun < 0)
            return true;
        models::Diagnostic diagnostic = budget.diagnostic(
            file, std::clamp<qint64>(sanitized ? sanitized->originalOffset(overrun) : overrun, 0, fileSize));
        m_result.diagnostics.append(diagnostic);
        return false;
    }

    // --- dump.json ---------------------------------------------------------------------------------------

    bool parseDumpJson()
    {
        const QString& file = m_files.dumpPath;
        const qint64 fileSize = m_files.dumpJson.size();
        if (fileSize == 0) {
            add(models::Severity::Error, file,
                QCoreApplication::translate(
                    "runlens::accuracy", "dump.json is empty; the dump was probably stopped before its first flush"));
            m_result.status = models::ImportStatus::Failed;
            return false;
        }
        const Sanitized sanitized = sanitizeNonFinite(m_files.dumpJson);
        if (!withinBudget(file, sanitized.text, fileSize, &sanitized)) {
            m_result.status = models::ImportStatus::Failed;
            return false;
        }
        m_budget = std::make_unique<ImportBudget>(fileSize);

        bool sawTopObject = false;
        bool dataIsObject = false;
        bool dataSeen = false;
        std::string topKey;
        std::string entryKey;
        auto callback = [&](int depth, Json::parse_event_t event, Json& parsed) -> bool {
            using Event = Json::parse_event_t;
            if (depth == 0 && event == Event::object_start)
                sawTopObject = true;
            if (depth == 1) {
                if (event == Event::key) {
                    topKey = parsed.get<std::string>();
                } else if (topKey == "data" && (event == Event::object_start || event == Event::array_start)) {
                    dataSeen = true;
                    dataIsObject = event == Event::object_start;
                } else if (event == Event::value) {
                    topValue(topKey, parsed);
                    if (topKey == "data")
                        dataSeen = true;
                }
                return true;
            }
            if (depth != 2 || topKey != "data" || !dataIsObject)
                return true;
            if (event == Event::key) {
                entryKey = parsed.get<std::string>();
                return true;
            }
            if (event == Event::object_end || event == Event::array_end || event == Event::value) {
                if (m_dump.entries.size() % kCancelCheckEvery == 0 && m_control.canceled())
                    throw Canceled();
                entry(fromStd(entryKey), parsed);
                return false; // the record is done with: keep the document small
            }
            return true;
        };

        bool complete = false;
        try {
            Json top = Json::parse(sanitized.text.constBegin(), sanitized.text.constEnd(), callback);
            complete = true;
            if (!top.is_object() && !sawTopObject) {
                add(models::Severity::Error, file,
                    QCoreApplication::translate("runlens::accuracy",
                                                "not an msprobe dump.json: the top level is not an object"));
                m_result.status = models::ImportStatus::Failed;
                return false;
            }
        } catch (const Canceled&) {
            cancel();
            return false;
        } catch (const nlohmann::json::exception& error) {
            parseError(file, error, fileSize, &sanitized);
        } catch (const std::bad_alloc&) {
            add(models::Severity::Error, file,
                QCoreApplication::translate("runlens::accuracy",
                                            "not enough memory to read dump.json; the entries read before are kept"));
        }
        finishHeader();
        if (!sawTopObject) {
            m_result.status = models::ImportStatus::Failed;
            return false;
        }
        if (complete && !dataSeen) {
            add(models::Severity::Error, file,
                QCoreApplication::translate("runlens::accuracy", "no 'data' object: this is not an msprobe dump.json"));
            m_result.status = models::ImportStatus::Failed;
            return false;
        }
        if (dataSeen && !dataIsObject) {
            add(models::Severity::Error, file,
                QCoreApplication::translate("runlens::accuracy",
                                            "'data' is not an object of entries; nothing can be read from it"));
            m_result.status = models::ImportStatus::Failed;
            return false;
        }
        if (!complete) {
            if (m_dump.entries.isEmpty()) {
                m_result.status = models::ImportStatus::Failed;
                return false;
            }
            add(models::Severity::Warning, file,
                QCoreApplication::translate("runlens::accuracy",
                                            "dump.json ends early; the %n entries before the cut are kept (a run "
                                            "that stopped while msprobe was writing leaves such a file)",
                                            nullptr, int(m_dump.entries.size())));
        }
        return true;
    }

    void topValue(const std::string& key, const Json& value)
    {
        auto text = [&](QString& out) {
            if (value.is_string())
                out = fromStd(value.get_ref<const std::string&>());
            else if (!value.is_null())
                add(models::Severity::Warning, m_files.dumpPath,
                    QCoreApplication::translate("runlens::accuracy", "'%1' is not a string (%2); ignored")
                        .arg(fromStd(key), jsonText(value).left(80)));
        };
        if (key == "task")
            text(m_dump.taskText);
        else if (key == "level")
            text(m_dump.levelText);
        else if (key == "framework")
            text(m_dump.frameworkText);
        else if (key == "dump_data_dir")
            text(m_dump.dumpDataDir);
    }

    void finishHeader()
    {
        m_dump.task = models::accuracy::dumpTaskFromText(m_dump.taskText);
        if (m_dump.task == models::accuracy::DumpTask::Statistics && m_sawMd5)
            m_dump.task = models::accuracy::DumpTask::Md5;
        m_dump.level = models::accuracy::dumpLevelFromText(m_dump.levelText);
        m_dump.framework = models::accuracy::dumpFrameworkFromText(m_dump.frameworkText);
        // Older dumps name no framework; msprobe then looks at the tensor types.
        if (m_dump.framework == models::accuracy::DumpFramework::Unknown && m_dump.frameworkText.isEmpty())
            m_dump.framework = m_sawTorchType ? models::accuracy::DumpFramework::PyTorch
                : m_sawMindSporeType          ? models::accuracy::DumpFramework::MindSpore
                                              : models::accuracy::DumpFramework::Unknown;
    }

    void entry(const QString& name, const Json& record)
    {
        const QString& file = m_files.dumpPath;
        if (m_dump.entryIndex.contains(name)) {
            warn(file,
                 QCoreApplication::translate("runlens::accuracy",
                                             "entry '%1' appears twice; the later record is ignored")
                     .arg(name));
            return;
        }
        if (!record.is_object()) {
            warn(file,
                 QCoreApplication::translate("runlens::accuracy", "entry '%1' is not an object (%2); skipped")
                     .arg(name, jsonText(record).left(80)));
            return;
        }
        models::accuracy::DumpEntry entry;
        entry.name = models::accuracy::parseEntryName(name);
        if (!entry.name.valid)
            warn(file,
                 QCoreApplication::translate(
                     "runlens::accuracy",
                     "entry '%1' is not named as msprobe names APIs and modules; its parts are unknown")
                     .arg(name));
        m_entry = &entry;
        if (entry.name.direction == models::accuracy::Direction::ParametersGrad) {
            for (const auto& [key, value] : record.items())
                flatten(value, models::accuracy::ArgRole::ParameterGrad, fromStd(key), 0);
        } else {
            struct Section
            {
                const char* key;
                models::accuracy::ArgRole role;
                bool isList;
            };
            static constexpr Section kSections[] = {
                { "input_args", models::accuracy::ArgRole::Input, true },
                { "input_kwargs", models::accuracy::ArgRole::Kwarg, false },
                { "input", models::accuracy::ArgRole::Input, true },
                { "parameters", models::accuracy::ArgRole::Parameter, false },
                { "output", models::accuracy::ArgRole::Output, true },
            };
            for (const Section& section : kSections) {
                const Json* value = member(record, section.key);
                if (!value || value->is_null())
                    continue;
                if (!value->is_array() && !value->is_object()) {
                    warn(file,
                         QCoreApplication::translate("runlens::accuracy",
                                                     "entry '%1': '%2' is neither a list nor an object (%3); ignored")
                             .arg(name, QLatin1String(section.key), jsonText(*value).left(80)));
                    continue;
                }
                flatten(*value, section.role, QString(), 0);
            }
            if (const Json* recompute = member(record, "is_recompute"); recompute && recompute->is_boolean())
                entry.isRecompute = recompute->get<bool>();
        }
        m_entry = nullptr;
        if (m_rowBudgetExceeded)
            return;
        m_dump.entryIndex.insert(name, int(m_dump.entries.size()));
        m_dump.entries.append(std::move(entry));
    }

    static QString joinPath(const QString& path, const QString& part)
    {
        return path.isEmpty() ? part : path + QLatin1Char('.') + part;
    }

    void flatten(const Json& value, models::accuracy::ArgRole role, const QString& path, int depth)
    {
        if (depth > ImportLimits::kMaxDepth)
            return; // scanJsonLimits already refused deeper documents
        if (value.is_array()) {
            // parameters_grad holds one-element lists that add no index to the row name.
            if (role == models::accuracy::ArgRole::ParameterGrad && depth == 0 && value.size() == 1) {
                flatten(value[0], role, path, depth + 1);
                return;
            }
            std::size_t index = 0;
            for (const Json& item : value)
                flatten(item, role, joinPath(path, QString::number(index++)), depth + 1);
            return;
        }
        // A dict with a string `type` is a value record; any other dict is a container (kwargs, a namedtuple).
        const Json* type = member(value, "type");
        if (value.is_object() && !(type && type->is_string())) {
            for (const auto& [key, item] : value.items())
                flatten(item, role, joinPath(path, fromStd(key)), depth + 1);
            return;
        }
        leaf(value, role, path);
    }

    void leaf(const Json& value, models::accuracy::ArgRole role, const QString& path)
    {
        if (!m_budget->spendElements(1)) {
            if (!m_rowBudgetExceeded)
                m_result.diagnostics.append(m_budget->diagnostic(m_files.dumpPath, -1));
            m_rowBudgetExceeded = true;
            m_result.status = models::ImportStatus::Partial;
            return;
        }
        models::accuracy::DumpRow row;
        row.role = role;
        row.path = path;
        if (value.is_null()) {
            row.kind = models::accuracy::ValueKind::Null;
        } else if (value.is_object()) {
            if (const Json* type = member(value, "type"); type && type->is_string())
                row.type = fromStd(type->get_ref<const std::string&>());
            if (row.type.startsWith(QLatin1String("torch")))
                m_sawTorchType = true;
            else if (row.type.startsWith(QLatin1String("mindspore")))
                m_sawMindSporeType = true;
            if (member(value, "dtype") && !row.type.endsWith(QLatin1String("dtype")))
                tensor(value, row);
            else
                scalarRecord(value, row);
        } else {
            row.kind = models::accuracy::ValueKind::Scalar;
            row.value = plainValue(value, 0);
            row.type = value.is_boolean() ? QStringLiteral("bool")
                : value.is_number_float() ? QStringLiteral("float")
                : value.is_number()       ? QStringLiteral("int")
                                          : QStringLiteral("str");
        }
        const QString& entryName = m_entry->name.full;
        if (!row.dataName.isEmpty()) {
            row.name = stripDataExtension(row.dataName);
        } else if (role == models::accuracy::ArgRole::ParameterGrad) {
            row.name = joinPath(entryName, path);
        } else {
            const QLatin1String section = role == models::accuracy::ArgRole::Parameter ? QLatin1String("parameters")
                : role == models::accuracy::ArgRole::Output                            ? QLatin1String("output")
                                                                                       : QLatin1String("input");
            row.name = joinPath(entryName + QLatin1Char('.') + section, path);
        }
        m_entry->rows.append(std::move(row));
    }

    static QString where(const models::accuracy::DumpRow& row)
    {
        return row.path.isEmpty() ? models::accuracy::argRoleId(row.role)
                                  : models::accuracy::argRoleId(row.role) + QLatin1Char(' ') + row.path;
    }

    void wrongType(const models::accuracy::DumpRow& row, const char* key, const Json& value, const QString& expected)
    {
        warn(m_files.dumpPath,
             QCoreApplication::translate("runlens::accuracy", "entry '%1', %2: '%3' is not %4 (%5); ignored")
                 .arg(m_entry->name.full, where(row), QLatin1String(key), expected, jsonText(value).left(60)));
    }

    void tensor(const Json& record, models::accuracy::DumpRow& row)
    {
        row.kind = models::accuracy::ValueKind::Tensor;
        if (const Json* dtype = member(record, "dtype"); dtype && !dtype->is_null()) {
            if (dtype->is_string())
                row.dtype = fromStd(dtype->get_ref<const std::string&>());
            else
                wrongType(row, "dtype", *dtype, QCoreApplication::translate("runlens::accuracy", "a string"));
        }
        if (const Json* shape = member(record, "shape"); shape && !shape->is_null()) {
            bool ok = shape->is_array();
            QList<qint64> dims;
            if (ok) {
                for (const Json& dim : *shape) {
                    if (dim.is_number_unsigned() && dim.get<std::uint64_t>() <= std::uint64_t(INT64_MAX))
                        dims.append(qint64(dim.get<std::uint64_t>()));
                    else if (dim.is_number_integer() && dim.get<std::int64_t>() >= 0)
                        dims.append(dim.get<std::int64_t>());
                    else {
                        ok = false;
                        break;
                    }
                }
            }
            if (ok) {
                row.shape = std::move(dims);
                row.hasShape = true;
            } else {
                wrongType(row, "shape", *shape, QCoreApplication::translate("runlens::accuracy", "a list of sizes"));
            }
        }
        row.max = statistic(record, "Max", row);
        row.min = statistic(record, "Min", row);
        row.mean = statistic(record, "Mean", row);
        row.norm = statistic(record, "Norm", row);
        row.md5 = stringMember(record, "md5", row);
        if (!row.md5.isEmpty())
            m_sawMd5 = true;
        row.dataName = stringMember(record, "data_name", row);
        // msprobe marks a tensor it could not save with "-1".
        if (row.dataName == QLatin1String("-1"))
            row.dataName.clear();
        if (const Json* grad = member(record, "requires_grad"); grad && !grad->is_null()) {
            if (grad->is_boolean())
                row.requiresGrad = grad->get<bool>();
            else if (grad->is_string()
                     && (grad->get_ref<const std::string&>() == "True"
                         || grad->get_ref<const std::string&>() == "False"))
                row.requiresGrad = grad->get_ref<const std::string&>() == "True";
            else
                wrongType(row, "requires_grad", *grad, QCoreApplication::translate("runlens::accuracy", "a boolean"));
        }
    }

    QString stringMember(const Json& record, const char* key, const models::accuracy::DumpRow& row)
    {
        const Json* value = member(record, key);
        if (!value || value->is_null())
            return {};
        if (value->is_string())
            return fromStd(value->get_ref<const std::string&>());
        wrongType(row, key, *value, QCoreApplication::translate("runlens::accuracy", "a string"));
        return {};
    }

    std::optional<double> statistic(const Json& record, const char* key, models::accuracy::DumpRow& row)
    {
        const Json* value = member(record, key);
        if (!value || value->is_null())
            return std::nullopt;
        if (value->is_number())
            return value->get<double>();
        if (value->is_boolean()) {
            row.booleanStats = true;
            return value->get<bool>() ? 1.0 : 0.0;
        }
        if (value->is_string())
            if (const std::optional<double> special = nonFiniteFromText(value->get_ref<const std::string&>()))
                return special;
        wrongType(row, key, *value, QCoreApplication::translate("runlens::accuracy", "a number"));
        return std::nullopt;
    }

    void scalarRecord(const Json& record, models::accuracy::DumpRow& row)
    {
        row.kind = models::accuracy::ValueKind::Scalar;
        const Json* value = member(record, "value");
        if (!value)
            value = member(record, "group_ranks"); // torch.ProcessGroup
        if (!value)
            value = member(record, "format"); // torch.memory_format
        if (!value) {
            row.kind = row.type.isEmpty() ? models::accuracy::ValueKind::Null : models::accuracy::ValueKind::Scalar;
            return;
        }
        if (value->is_string() && (row.type == QLatin1String("float") || row.type.startsWith(QLatin1String("float"))))
            if (const std::optional<double> special = nonFiniteFromText(value->get_ref<const std::string&>())) {
                row.value = *special;
                return;
            }
        row.value = plainValue(*value, 0);
    }

    QVariant plainValue(const Json& value, int depth)
    {
        switch (value.type()) {
        case Json::value_t::boolean:
            return value.get<bool>();
        case Json::value_t::number_integer:
            return qint64(value.get<std::int64_t>());
        case Json::value_t::number_unsigned:
            return value.get<std::uint64_t>() <= std::uint64_t(INT64_MAX) ? QVariant(qint64(value.get<std::uint64_t>()))
                                                                          : QVariant(value.get<double>());
        case Json::value_t::number_float:
            return value.get<double>();
        case Json::value_t::string:
            return fromStd(value.get_ref<const std::string&>());
        case Json::value_t::array: {
            QVariantList list;
            if (depth < ImportLimits::kMaxDepth)
                for (const Json& item : value)
                    list.append(plainValue(item, depth + 1));
            return list;
        }
        case Json::value_t::object:
            return jsonText(value);
        default:
            return {};
        }
    }

    // --- construct.json ----------------------------------------------------------------------------------

    std::optional<Json> parseSmall(const QString& file, const QByteArray& bytes)
    {
        if (bytes.trimmed().isEmpty()) {
            add(models::Severity::Warning, file,
                QCoreApplication::translate("runlens::accuracy", "the file is empty; ignored"));
            return std::nullopt;
        }
        const Sanitized sanitized = sanitizeNonFinite(bytes);
        if (!withinBudget(file, sanitized.text, bytes.size(), &sanitized)) {
            if (m_result.status == models::ImportStatus::Ok)
                m_result.status = models::ImportStatus::Partial;
            return std::nullopt;
        }
        try {
            Json document = Json::parse(sanitized.text.constBegin(), sanitized.text.constEnd());
            if (document.is_object())
                return document;
            add(models::Severity::Warning, file,
                QCoreApplication::translate("runlens::accuracy", "the top level is not an object; ignored"));
        } catch (const nlohmann::json::exception& error) {
            parseError(file, error, bytes.size(), &sanitized);
        }
        return std::nullopt;
    }

    void parseConstruct(const QByteArray& bytes)
    {
        const QString& file = m_files.constructPath;
        const std::optional<Json> document = parseSmall(file, bytes);
        if (!document)
            return;
        for (const auto& [key, value] : document->items()) {
            const QString child = fromStd(key);
            if (key == "megatron_micro_step_number") {
                if (value.is_number_integer())
                    m_dump.megatronMicroSteps = value.get<std::int64_t>();
                continue;
            }
            models::accuracy::ConstructParent parent;
            if (value.is_string()) {
                parent.parent = fromStd(value.get_ref<const std::string&>());
            } else if (value.is_array() && !value.empty() && (value[0].is_string() || value[0].is_null())) {
                if (value[0].is_string())
                    parent.parent = fromStd(value[0].get_ref<const std::string&>());
                if (value.size() > 1 && value[1].is_number_integer())
                    parent.microStep = value[1].get<std::int64_t>();
            } else if (!value.is_null()) {
                warn(file,
                     QCoreApplication::translate("runlens::accuracy", "'%1': the parent is not a name (%2); ignored")
                         .arg(child, jsonText(value).left(80)));
                continue;
            }
            if (m_dump.parents.contains(child))
                continue;
            m_dump.parents.insert(child, parent);
            m_dump.constructOrder.append(child);
        }
    }

    // --- stack.json --------------------------------------------------------------------------------------

    std::optional<models::accuracy::Stack> frames(const QString& file, const QString& owner, const Json& list)
    {
        if (!list.is_array()) {
            warn(file,
                 QCoreApplication::translate("runlens::accuracy",
                                             "'%1': the stack is not a list of frames (%2); ignored")
                     .arg(owner, jsonText(list).left(80)));
            return std::nullopt;
        }
        models::accuracy::Stack stack;
        stack.reserve(qsizetype(list.size()));
        for (const Json& frame : list) {
            if (frame.is_string())
                stack.append(models::accuracy::parseStackFrame(fromStd(frame.get_ref<const std::string&>())));
            else
                stack.append(models::accuracy::StackFrame { {}, -1, {}, {}, jsonText(frame).left(200) });
        }
        return stack;
    }

    void parseStacks(const QByteArray& bytes)
    {
        const QString& file = m_files.stackPath;
        const std::optional<Json> document = parseSmall(file, bytes);
        if (!document)
            return;
        // The newer, deduplicated form: stack id -> [[entry names], [frames]].
        const bool byId = document->contains("0");
        for (const auto& [key, value] : document->items()) {
            const QString owner = fromStd(key);
            if (!byId) {
                if (std::optional<models::accuracy::Stack> stack = frames(file, owner, value)) {
                    m_dump.stackIndex.insert(owner, int(m_dump.stacks.size()));
                    m_dump.stacks.append(std::move(*stack));
                }
                continue;
            }
            if (!value.is_array() || value.size() != 2 || !value[0].is_array()) {
                warn(file,
                     QCoreApplication::translate("runlens::accuracy", "stack '%1' is not [names, frames] (%2); ignored")
                         .arg(owner, jsonText(value).left(80)));
                continue;
            }
            std::optional<models::accuracy::Stack> stack = frames(file, owner, value[1]);
            if (!stack)
                continue;
            const int index = int(m_dump.stacks.size());
            m_dump.stacks.append(std::move(*stack));
            for (const Json& name : value[0])
                if (name.is_string())
                    m_dump.stackIndex.insert(fromStd(name.get_ref<const std::string&>()), index);
        }
    }

    // --- dump_tensor_data/ -------------------------------------------------------------------------------

    void matchTensorFiles()
    {
        const QString dataDir = m_files.folder + QStringLiteral("/dump_tensor_data");
        for (const QString& name : m_files.tensorFileNames)
            m_dump.tensorFiles.insert(name, dataDir + QLatin1Char('/') + name);
        if (m_files.tensorFileNames.isEmpty() && m_dump.task != models::accuracy::DumpTask::Tensor)
            return;
        int missing = 0;
        QString firstMissing;
        QSet<QString> named;
        for (const models::accuracy::DumpEntry& entry : std::as_const(m_dump.entries))
            for (const models::accuracy::DumpRow& row : entry.rows) {
                if (row.dataName.isEmpty())
                    continue;
                named.insert(row.dataName);
                if (!m_dump.tensorFiles.contains(row.dataName) && missing++ == 0)
                    firstMissing = row.dataName;
            }
        if (missing > 0)
            add(models::Severity::Warning, m_files.dumpPath,
                QCoreApplication::translate("runlens::accuracy",
                                            "%1 tensors named in dump.json have no file in %2 (the first: %3)")
                    .arg(missing)
                    .arg(dataDir, firstMissing));
        int orphans = 0;
        for (const QString& name : m_files.tensorFileNames)
            orphans += named.contains(name) ? 0 : 1;
        if (orphans > 0)
            add(models::Severity::Info, m_files.dumpPath,
                QCoreApplication::translate(
                    "runlens::accuracy",
                    "%1 files in %2 are named by no entry of dump.json (a run that stopped before msprobe wrote "
                    "dump.json again leaves such files)")
                    .arg(orphans)
                    .arg(dataDir));
    }

    const MsprobeDumpFiles& m_files;
    const ImportControl& m_control;
    MsprobeReadResult& m_result;
    models::accuracy::MsprobeDump& m_dump;
    std::unique_ptr<ImportBudget> m_budget;
    models::accuracy::DumpEntry* m_entry = nullptr;
    int m_warnings = 0;
    bool m_rowBudgetExceeded = false;
    bool m_sawMd5 = false;
    bool m_sawTorchType = false;
    bool m_sawMindSporeType = false;
};

} // namespace

MsprobeReadResult parseMsprobeDump(const MsprobeDumpFiles& files, const ImportControl& control)
{
    MsprobeReadResult result;
    auto dump = std::make_shared<models::accuracy::MsprobeDump>();
    DumpParser(files, control, result, *dump).run();
    result.dump = std::move(dump);
    return result;
}

QString msprobeDumpJsonPath(const QString& path)
{
    const QFileInfo info(path);
    if (info.isFile())
        return info.absoluteFilePath();
    if (!info.isDir())
        return {};
    const QDir dir(info.absoluteFilePath());
    for (const QString& name : { QStringLiteral("dump.json"), QStringLiteral("debug.json") })
        if (QFileInfo(dir.filePath(name)).isFile())
            return dir.filePath(name);
    return {};
}

MsprobeReadResult readMsprobeDump(const QString& path, const ImportControl& control)
{
    MsprobeReadResult result;
    const QString dumpPath = msprobeDumpJsonPath(path);
    if (dumpPath.isEmpty()) {
        result.dump = std::make_shared<models::accuracy::MsprobeDump>();
        result.status = models::ImportStatus::Failed;
        result.diagnostics.append(
            { models::Severity::Error, QFileInfo(path).absoluteFilePath(), -1, -1,
              QCoreApplication::translate("runlens::accuracy",
                                          "no dump.json here: an msprobe dump folder (step*/rank*/) holds one") });
        return result;
    }
    MsprobeDumpFiles files;
    files.dumpPath = dumpPath;
    files.folder = QFileInfo(dumpPath).absolutePath();
    const QDir dir(files.folder);
    auto read = [&](const QString& file, bool required) -> std::optional<QByteArray> {
        QFile f(file);
        if (!f.exists() && !required)
            return std::nullopt;
        if (!f.open(QIODevice::ReadOnly)) {
            result.diagnostics.append(
                { required ? models::Severity::Error : models::Severity::Warning, file, -1, -1,
                  QCoreApplication::translate("runlens::accuracy", "cannot read the file: %1").arg(f.errorString()) });
            return std::nullopt;
        }
        return f.readAll();
    };
    const std::optional<QByteArray> dumpJson = read(dumpPath, true);
    if (!dumpJson) {
        result.dump = std::make_shared<models::accuracy::MsprobeDump>();
        result.status = models::ImportStatus::Failed;
        return result;
    }
    files.dumpJson = *dumpJson;
    files.constructPath = dir.filePath(QStringLiteral("construct.json"));
    files.constructJson = read(files.constructPath, false);
    files.stackPath = dir.filePath(QStringLiteral("stack.json"));
    files.stackJson = read(files.stackPath, false);
    const QDir tensorDir(dir.filePath(QStringLiteral("dump_tensor_data")));
    if (tensorDir.exists())
        files.tensorFileNames = tensorDir.entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
    const models::Diagnostics readProblems = result.diagnostics;
    result = parseMsprobeDump(files, control);
    if (!readProblems.isEmpty()) {
        result.diagnostics = readProblems + result.diagnostics;
        if (result.status == models::ImportStatus::Ok)
            result.status = models::ImportStatus::Partial;
    }
    return result;
}

} // namespace runlens::importers::accuracy
