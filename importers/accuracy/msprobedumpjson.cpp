#include "importers/accuracy/msprobedumpparts.h"

#include <QCoreApplication>

#include <limits>

namespace runlens::importers::accuracy::detail {

namespace {

constexpr int kCancelCheckEvery = 64; // entries between looks at the cancel flag

/// Thrown from the parse callback to stop parsing when the user cancels.
struct Canceled
{
};

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

QString stripDataExtension(const QString& dataName)
{
    for (const QLatin1String ext : { QLatin1String(".pt"), QLatin1String(".npy") })
        if (dataName.endsWith(ext))
            return dataName.chopped(ext.size());
    return dataName;
}

} // namespace

bool DumpParser::parseDumpJson()
{
    const QString& file = m_files.dumpPath;
    const qint64 fileSize = m_files.dumpJson.size();
    if (fileSize == 0) {
        add(models::Severity::Error, file,
            QCoreApplication::translate("runlens::accuracy",
                                        "dump.json is empty; the dump was probably stopped before its first flush"));
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

void DumpParser::topValue(const std::string& key, const Json& value)
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

void DumpParser::finishHeader()
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

void DumpParser::entry(const QString& name, const Json& record)
{
    const QString& file = m_files.dumpPath;
    if (m_dump.entryIndex.contains(name)) {
        warn(file,
             QCoreApplication::translate("runlens::accuracy", "entry '%1' appears twice; the later record is ignored")
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
        warn(
            file,
            QCoreApplication::translate(
                "runlens::accuracy", "entry '%1' is not named as msprobe names APIs and modules; its parts are unknown")
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

QString DumpParser::joinPath(const QString& path, const QString& part)
{
    return path.isEmpty() ? part : path + QLatin1Char('.') + part;
}

void DumpParser::flatten(const Json& value, models::accuracy::ArgRole role, const QString& path, int depth)
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

void DumpParser::leaf(const Json& value, models::accuracy::ArgRole role, const QString& path)
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

QString DumpParser::where(const models::accuracy::DumpRow& row)
{
    return row.path.isEmpty() ? models::accuracy::argRoleId(row.role)
                              : models::accuracy::argRoleId(row.role) + QLatin1Char(' ') + row.path;
}

void DumpParser::wrongType(const models::accuracy::DumpRow& row, const char* key, const Json& value,
                           const QString& expected)
{
    warn(m_files.dumpPath,
         QCoreApplication::translate("runlens::accuracy", "entry '%1', %2: '%3' is not %4 (%5); ignored")
             .arg(m_entry->name.full, where(row), QLatin1String(key), expected, jsonText(value).left(60)));
}

void DumpParser::tensor(const Json& record, models::accuracy::DumpRow& row)
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
                 && (grad->get_ref<const std::string&>() == "True" || grad->get_ref<const std::string&>() == "False"))
            row.requiresGrad = grad->get_ref<const std::string&>() == "True";
        else
            wrongType(row, "requires_grad", *grad, QCoreApplication::translate("runlens::accuracy", "a boolean"));
    }
}

QString DumpParser::stringMember(const Json& record, const char* key, const models::accuracy::DumpRow& row)
{
    const Json* value = member(record, key);
    if (!value || value->is_null())
        return {};
    if (value->is_string())
        return fromStd(value->get_ref<const std::string&>());
    wrongType(row, key, *value, QCoreApplication::translate("runlens::accuracy", "a string"));
    return {};
}

std::optional<double> DumpParser::statistic(const Json& record, const char* key, models::accuracy::DumpRow& row)
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

void DumpParser::scalarRecord(const Json& record, models::accuracy::DumpRow& row)
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

QVariant DumpParser::plainValue(const Json& value, int depth)
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

} // namespace runlens::importers::accuracy::detail
