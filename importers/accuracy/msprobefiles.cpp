#include "importers/accuracy/msprobedumpparts.h"

#include <QCoreApplication>
#include <QSet>

namespace runlens::importers::accuracy::detail {

std::optional<Json> DumpParser::parseSmall(const QString& file, const QByteArray& bytes)
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

void DumpParser::parseConstruct(const QByteArray& bytes)
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

std::optional<models::accuracy::Stack> DumpParser::frames(const QString& file, const QString& owner, const Json& list)
{
    if (!list.is_array()) {
        warn(file,
             QCoreApplication::translate("runlens::accuracy", "'%1': the stack is not a list of frames (%2); ignored")
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

void DumpParser::parseStacks(const QByteArray& bytes)
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

void DumpParser::matchTensorFiles()
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

} // namespace runlens::importers::accuracy::detail
