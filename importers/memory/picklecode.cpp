#include "importers/memory/safepickleparts.h"

#include <QStringList>

#include <string>

namespace runlens::importers::memory {

using namespace detail;

namespace {

const char* opcodeName(std::uint8_t op)
{
    switch (op) {
    case kGlobal:
        return "GLOBAL";
    case kStackGlobal:
        return "STACK_GLOBAL";
    case kReduce:
        return "REDUCE";
    case kBuild:
        return "BUILD";
    case kInst:
        return "INST";
    case kObj:
        return "OBJ";
    case kNewObj:
        return "NEWOBJ";
    case kNewObjEx:
        return "NEWOBJ_EX";
    case kPersId:
        return "PERSID";
    case kBinPersId:
        return "BINPERSID";
    case kExt1:
        return "EXT1";
    case kExt2:
        return "EXT2";
    case kExt4:
        return "EXT4";
    case kNextBuffer:
        return "NEXT_BUFFER";
    case kReadOnlyBuffer:
        return "READONLY_BUFFER";
    case kFloat:
        return "FLOAT";
    case kLong:
        return "LONG";
    case kString:
        return "STRING";
    case kUnicode:
        return "UNICODE";
    default:
        return nullptr;
    }
}

/// Opcodes that reach Python code (import, call, object construction) or data outside the pickle.
bool isCodeOpcode(std::uint8_t op)
{
    switch (op) {
    case kGlobal:
    case kStackGlobal:
    case kReduce:
    case kBuild:
    case kInst:
    case kObj:
    case kNewObj:
    case kNewObjEx:
    case kPersId:
    case kBinPersId:
    case kExt1:
    case kExt2:
    case kExt4:
    case kNextBuffer:
    case kReadOnlyBuffer:
        return true;
    default:
        return false;
    }
}

// What torch's weights-only unpickler allows of the globals a tensor data.pkl uses (torch/_weights_only_unpickler.py).
constexpr std::string_view kTorchCallables[] = {
    "torch._utils._rebuild_tensor_v2",
    "torch._utils._rebuild_tensor_v3",
    "torch._utils._rebuild_tensor",
    "torch._utils._rebuild_parameter",
};
constexpr std::string_view kTorchStorageTypes[] = {
    "torch.FloatStorage", "torch.HalfStorage", "torch.BFloat16Storage", "torch.DoubleStorage",
    "torch.LongStorage",  "torch.IntStorage",  "torch.ShortStorage",    "torch.CharStorage",
    "torch.ByteStorage",  "torch.BoolStorage", "torch.UntypedStorage",
};
// The dtypes _rebuild_tensor_v3 names (those without a legacy storage type, and the others for completeness).
constexpr std::string_view kTorchDtypes[] = {
    "torch.float32", "torch.float16", "torch.bfloat16", "torch.float64",       "torch.int64",
    "torch.int32",   "torch.int16",   "torch.int8",     "torch.uint8",         "torch.bool",
    "torch.uint16",  "torch.uint32",  "torch.uint64",   "torch.float8_e4m3fn", "torch.float8_e5m2",
};
constexpr std::string_view kOrderedDict = "collections.OrderedDict";
constexpr std::string_view kTorchSize = "torch.Size";
// Longer module or attribute names are no torch global; they are cut in messages.
constexpr std::size_t kMaxGlobalNameBytes = 200;

bool isTorchCallable(std::string_view name)
{
    return std::find(std::begin(kTorchCallables), std::end(kTorchCallables), name) != std::end(kTorchCallables);
}

bool isAllowedTorchGlobal(std::string_view name)
{
    return isTorchCallable(name) || name == kOrderedDict || name == kTorchSize
        || std::find(std::begin(kTorchStorageTypes), std::end(kTorchStorageTypes), name) != std::end(kTorchStorageTypes)
        || std::find(std::begin(kTorchDtypes), std::end(kTorchDtypes), name) != std::end(kTorchDtypes);
}

} // namespace

QString PickleDecoder::describeCodeOpcode(std::uint8_t op, std::size_t offset)
{
    QString what;
    if (op == kGlobal || op == kInst) {
        // Two text lines: module and name. Shown so the user sees what the file asked for.
        std::size_t at = offset + 1;
        QStringList parts;
        for (int line = 0; line < 2; ++line) {
            const std::size_t end = m_data.find('\n', at);
            if (end == std::string_view::npos || end - at > 200)
                break;
            parts << QString::fromUtf8(m_data.data() + at, qsizetype(end - at));
            at = end + 1;
        }
        if (parts.size() == 2)
            what = parts.join(QLatin1Char('.'));
    } else if (op == kStackGlobal && m_stack.size() >= 2) {
        const PickleValue module(&m_doc, m_stack[m_stack.size() - 2]);
        const PickleValue name(&m_doc, m_stack.back());
        if (module.isString() && name.isString())
            what = module.toString() + QLatin1Char('.') + name.toString();
    }
    const QString opcode
        = QStringLiteral("%1 (0x%2)").arg(QLatin1String(opcodeName(op))).arg(int(op), 2, 16, QLatin1Char('0'));
    if (!what.isEmpty()) {
        return Text::tr("pickle opcode %1 at offset %2 refers to the Python object %3; refused: RunLens reads only "
                        "plain data from pickles and never imports or runs code from a file")
            .arg(opcode)
            .arg(offset)
            .arg(what);
    }
    return Text::tr("pickle opcode %1 at offset %2 would import, call or build Python objects; refused: RunLens reads "
                    "only plain data from pickles and never imports or runs code from a file")
        .arg(opcode)
        .arg(offset);
}

PickleDecoder::Stop PickleDecoder::refuseTorch(const QString& what)
{
    error(m_opOffset,
          tr("pickle opcode %1 at offset %2 %3; refused: RunLens reads only tensors, storages and containers "
             "(what torch.load with weights_only=True allows) and never imports or runs code from a file")
              .arg(QLatin1String(opcodeName(m_op)))
              .arg(m_opOffset)
              .arg(what));
    m_refused = true;
    return Stop::Error;
}

PickleDecoder::Stop PickleDecoder::torchOpcode(std::uint8_t op)
{
    switch (op) {
    case kGlobal:
    case kStackGlobal: {
        std::string name;
        if (op == kGlobal) {
            for (int line = 0; line < 2; ++line) {
                const std::size_t end = m_data.find('\n', m_pos);
                if (end == std::string_view::npos)
                    return truncated();
                const std::string_view part = m_data.substr(m_pos, std::min(end - m_pos, kMaxGlobalNameBytes));
                if (line == 1)
                    name.push_back('.');
                name.append(part);
                m_pos = end + 1;
            }
        } else {
            if (!available(2))
                return malformed(tr("STACK_GLOBAL with fewer than two values on the stack"));
            const PickleValue attribute(&m_doc, pop());
            const PickleValue module(&m_doc, pop());
            if (!module.isString() || !attribute.isString())
                return malformed(tr("STACK_GLOBAL of values that are not strings"));
            name.append(module.bytes().substr(0, kMaxGlobalNameBytes));
            name.push_back('.');
            name.append(attribute.bytes().substr(0, kMaxGlobalNameBytes));
        }
        if (!isAllowedTorchGlobal(name))
            return refuseTorch(
                tr("refers to the Python object %1").arg(QString::fromUtf8(name.data(), qsizetype(name.size()))));
        push(addText(PickleType::Global, name));
        return Stop::Continue;
    }
    case kReduce: {
        if (!available(2))
            return malformed(tr("REDUCE with fewer than two values on the stack"));
        const std::uint32_t args = pop();
        const std::uint32_t callable = pop();
        const PickleValue function(&m_doc, callable);
        const std::string_view name = function.globalName();
        if (name.empty())
            return refuseTorch(tr("calls a value that is not an allowed function"));
        if (!isContainer(args, PickleType::Tuple))
            return malformed(tr("REDUCE arguments are not a tuple"));
        const PickleValue arguments(&m_doc, args);
        if (name == kOrderedDict) {
            if (arguments.size() != 0)
                return malformed(tr("collections.OrderedDict called with arguments"));
            push(addContainer(PickleType::Dict));
        } else if (name == kTorchSize) {
            if (arguments.size() != 1 || !arguments.at(0).isSequence())
                return malformed(tr("torch.Size called without one sequence of sizes"));
            push(addContainer(PickleType::Tuple, itemsOf(arguments.at(0).index())));
        } else if (isTorchCallable(name)) {
            push(addContainer(PickleType::Object, { callable, args }));
        } else {
            return refuseTorch(
                tr("calls %1, which is not a function").arg(QString::fromUtf8(name.data(), qsizetype(name.size()))));
        }
        return Stop::Continue;
    }
    case kBuild: {
        if (!available(2))
            return malformed(tr("BUILD with fewer than two values on the stack"));
        pop(); // the state: attributes of a state dict (_metadata) or of a tensor, not needed to read values
        if (!isContainer(m_stack.back(), PickleType::Dict) && !isContainer(m_stack.back(), PickleType::Object))
            return refuseTorch(tr("sets the state of a value that is neither a dict nor a tensor"));
        return Stop::Continue;
    }
    case kBinPersId: {
        if (!available(1))
            return malformed(tr("BINPERSID with an empty stack"));
        const std::uint32_t id = pop();
        const PickleValue tuple(&m_doc, id);
        if (tuple.type() != PickleType::Tuple || tuple.size() == 0 || tuple.at(0).bytes() != "storage"
            || !tuple.at(0).isString())
            return refuseTorch(tr("names a persistent object that is not a (\"storage\", ...) tuple"));
        push(addContainer(PickleType::PersistentId, { id }));
        return Stop::Continue;
    }
    default:
        return refuseTorch(tr("would import, call or build Python objects"));
    }
}

PickleDecoder::Stop PickleDecoder::unknownOpcode(std::uint8_t op)
{
    if (m_limits.torchWeights
        && (op == kGlobal || op == kStackGlobal || op == kReduce || op == kBuild || op == kBinPersId))
        return torchOpcode(op);
    if (isCodeOpcode(op)) {
        error(m_opOffset, describeCodeOpcode(op, m_opOffset));
        m_refused = true;
        return Stop::Error;
    }
    if (const char* name = opcodeName(op)) {
        error(m_opOffset,
              Text::tr("pickle opcode %1 (0x%2) at offset %3 belongs to the text protocols 0 and 1, which are "
                       "not supported; save the data with protocol 2 or later")
                  .arg(QLatin1String(name))
                  .arg(int(op), 2, 16, QLatin1Char('0'))
                  .arg(m_opOffset));
        return Stop::Error;
    }
    return malformed(Text::tr("unknown opcode"));
}

} // namespace runlens::importers::memory
