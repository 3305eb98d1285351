<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>MainWindow</name>
    <message>
        <source>Could not read the mapping file %1: %2</source>
        <translation>无法读取映射文件 %1：%2</translation>
    </message>
</context>
<context>
    <name>Text</name>
    <message>
        <source>%1 holds no tensor.</source>
        <translation>%1 中没有张量。</translation>
    </message>
</context>
<context>
    <name>runlens::ArtifactKind</name>
    <message>
        <source>TensorBoard events</source>
        <translation>TensorBoard 事件文件</translation>
    </message>
    <message>
        <source>MindSpore summary</source>
        <translation>MindSpore 摘要文件</translation>
    </message>
    <message>
        <source>MindSpore lineage</source>
        <translation>MindSpore 溯源文件</translation>
    </message>
    <message>
        <source>VisualDL log</source>
        <translation>VisualDL 日志</translation>
    </message>
    <message>
        <source>Profiler trace</source>
        <translation>性能跟踪</translation>
    </message>
    <message>
        <source>Memory timeline</source>
        <translation>内存时间线</translation>
    </message>
    <message>
        <source>MindSpore IR graph</source>
        <translation>MindSpore IR 图</translation>
    </message>
    <message>
        <source>Graphviz graph</source>
        <translation>Graphviz 图</translation>
    </message>
    <message>
        <source>ONNX model</source>
        <translation>ONNX 模型</translation>
    </message>
    <message>
        <source>TensorFlow graph</source>
        <translation>TensorFlow 图</translation>
    </message>
    <message>
        <source>MindSpore graph (anf_ir)</source>
        <translation>MindSpore 图（anf_ir）</translation>
    </message>
    <message>
        <source>TorchScript graph</source>
        <translation>TorchScript 图</translation>
    </message>
    <message>
        <source>NumPy tensor</source>
        <translation>NumPy 张量</translation>
    </message>
    <message>
        <source>NumPy archive</source>
        <translation>NumPy 归档</translation>
    </message>
    <message>
        <source>safetensors</source>
        <translation>safetensors</translation>
    </message>
    <message>
        <source>Profiler table</source>
        <translation>性能数据表</translation>
    </message>
    <message>
        <source>Profiler data</source>
        <translation>性能数据</translation>
    </message>
    <message>
        <source>Other file</source>
        <translation>其他文件</translation>
    </message>
    <message>
        <source>CUDA memory snapshot</source>
        <translation>CUDA 内存快照</translation>
    </message>
    <message>
        <source>MindSpore parallel strategy</source>
        <translation>MindSpore 并行策略</translation>
    </message>
    <message>
        <source>msprobe dump</source>
        <translation>msprobe 转储</translation>
    </message>
    <message>
        <source>PyTorch tensors</source>
        <translation>PyTorch 张量</translation>
    </message>
    <message>
        <source>Rank digest</source>
        <translation>卡摘要</translation>
    </message>
    <message>
        <source>Metrics table</source>
        <translation>指标表</translation>
    </message>
    <message>
        <source>Hugging Face trainer state</source>
        <translation>Hugging Face 训练器状态</translation>
    </message>
    <message>
        <source>MLflow run</source>
        <translation>MLflow 运行</translation>
    </message>
    <message>
        <source>GPU metrics log</source>
        <translation>GPU 指标日志</translation>
    </message>
    <message>
        <source>Paddle static model</source>
        <translation>Paddle 静态模型</translation>
    </message>
    <message>
        <source>VisualDL layer graph</source>
        <translation>VisualDL 层级图</translation>
    </message>
    <message>
        <source>W&amp;B run file</source>
        <translation>W&amp;B 运行文件</translation>
    </message>
    <message>
        <source>Embedding projector</source>
        <translation>嵌入投影</translation>
    </message>
    <message>
        <source>MindSpore MindIR model</source>
        <translation>MindSpore MindIR 模型</translation>
    </message>
    <message>
        <source>TensorFlow SavedModel or MetaGraph</source>
        <translation>TensorFlow SavedModel 或 MetaGraph</translation>
    </message>
    <message>
        <source>TensorFlow Lite model</source>
        <translation>TensorFlow Lite 模型</translation>
    </message>
</context>
<context>
    <name>runlens::ChromeTraceReader</name>
    <message>
        <source>Skipped an event: %1</source>
        <translation>跳过了一个事件：%1</translation>
    </message>
    <message>
        <source>Import canceled; the events read so far are kept</source>
        <translation>导入已取消；已读取的事件会保留</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; has a wrong type or an invalid value</source>
        <translation>字段 &quot;%1&quot; 的类型错误或值无效</translation>
    </message>
    <message>
        <source>no valid &quot;ts&quot;</source>
        <translation>没有有效的 &quot;ts&quot;</translation>
    </message>
    <message>
        <source>An &quot;E&quot; event has no matching &quot;B&quot; on its thread; ignored</source>
        <translation>一个 &quot;E&quot; 事件在其线程上没有匹配的 &quot;B&quot;；已忽略</translation>
    </message>
    <message>
        <source>flow event without &quot;id&quot;</source>
        <translation>流事件缺少 &quot;id&quot;</translation>
    </message>
    <message>
        <source>%1 begin event(s) without an end; shown as running to the end of the trace</source>
        <translation>%1 个开始事件没有结束；显示为一直持续到跟踪结束</translation>
    </message>
    <message>
        <source>%1 end event(s) without a matching begin were ignored</source>
        <translation>%1 个没有匹配开始的结束事件已被忽略</translation>
    </message>
    <message>
        <source>%1 event(s) were skipped (invalid UTF-8, bad escapes or fields of the wrong type); the first one is at this offset</source>
        <translation>跳过了 %1 个事件（无效的 UTF-8、错误的转义或字段类型错误）；第一个位于此偏移处</translation>
    </message>
    <message>
        <source>Cannot initialise zlib to inflate the trace</source>
        <translation>无法初始化 zlib 来解压跟踪</translation>
    </message>
    <message>
        <source>The gzip stream is truncated or corrupt; using the %1 bytes inflated so far</source>
        <translation>gzip 数据流被截断或已损坏；使用目前已解压的 %1 字节</translation>
    </message>
    <message>
        <source>Cannot open the trace: %1. Check that the file exists and is readable.</source>
        <translation>无法打开跟踪：%1。请检查文件是否存在且可读。</translation>
    </message>
    <message>
        <source>The file could not be read completely</source>
        <translation>无法完整读取该文件</translation>
    </message>
    <message>
        <source>Not enough memory to inflate the trace</source>
        <translation>内存不足，无法解压该跟踪文件</translation>
    </message>
    <message>
        <source>Not enough memory to read the trace (%1 bytes)</source>
        <translation>内存不足，无法读取该跟踪文件（%1 字节）</translation>
    </message>
    <message>
        <source>The trace file is empty</source>
        <translation>跟踪文件为空</translation>
    </message>
    <message>
        <source>Not a Chrome trace: expected a JSON object with &quot;traceEvents&quot; or an array of events</source>
        <translation>不是 Chrome 跟踪：应为包含 &quot;traceEvents&quot; 的 JSON 对象或事件数组</translation>
    </message>
    <message>
        <source>The trace ends inside its top-level object (truncated file?)</source>
        <translation>跟踪在顶层对象内部结束（文件被截断？）</translation>
    </message>
    <message>
        <source>Unexpected character in the top-level object; the rest is ignored</source>
        <translation>顶层对象中出现意外字符；其余部分被忽略</translation>
    </message>
    <message>
        <source>The trace ends inside a key (truncated file?)</source>
        <translation>跟踪在一个键的内部结束（文件被截断？）</translation>
    </message>
    <message>
        <source>Expected &apos;:&apos; after a top-level key; the rest is ignored</source>
        <translation>顶层键之后应为 &apos;:&apos;；其余部分被忽略</translation>
    </message>
    <message>
        <source>The trace ends inside the value of &quot;%1&quot; (truncated file?)</source>
        <translation>跟踪在 &quot;%1&quot; 的值内部结束（文件被截断？）</translation>
    </message>
    <message>
        <source>The trace ends inside the event list (truncated file?); the events before are kept</source>
        <translation>跟踪在事件列表内部结束（文件被截断？）；之前的事件已保留</translation>
    </message>
    <message>
        <source>Unexpected text between events; skipped to the next event</source>
        <translation>事件之间有意外的文本；已跳到下一个事件</translation>
    </message>
    <message>
        <source>The trace ends inside an event (truncated file?); the events before it are kept</source>
        <translation>跟踪在一个事件内部结束（文件被截断？）；它之前的事件已保留</translation>
    </message>
    <message>
        <source>&quot;ts&quot; is out of range</source>
        <translation>&quot;ts&quot; 超出范围</translation>
    </message>
    <message>
        <source>At byte %1 of the inflated content: %2</source>
        <translation>解压后内容的第 %1 字节处：%2</translation>
    </message>
</context>
<context>
    <name>runlens::ColorMap</name>
    <message>
        <source>Grey</source>
        <translation>灰度</translation>
    </message>
    <message>
        <source>Diverging (blue - white - red)</source>
        <translation>发散（蓝 - 白 - 红）</translation>
    </message>
    <message>
        <source>Viridis</source>
        <translation>Viridis</translation>
    </message>
</context>
<context>
    <name>runlens::DumpIndex</name>
    <message>
        <source>input %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <source>output %1</source>
        <translation>输出 %1</translation>
    </message>
</context>
<context>
    <name>runlens::DumpIndexer</name>
    <message>
        <source>Dump tensor skipped: %1</source>
        <translation>已跳过转储张量：%1</translation>
    </message>
</context>
<context>
    <name>runlens::ImportBoundary</name>
    <message>
        <source>Not enough memory to read this file; what was read before is kept. Close other runs or read the file on a machine with more memory.</source>
        <translation>内存不足，无法读取此文件；已读取的内容予以保留。请关闭其他运行，或在内存更大的机器上读取此文件。</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>Reading stopped on an unexpected error (%1); what was read before is kept. The file is probably damaged.</source>
        <translation>读取因意外错误（%1）而停止；已读取的内容予以保留。文件可能已损坏。</translation>
    </message>
    <message>
        <source>Not a regular file (a pipe, socket or device); it is not read.</source>
        <translation>不是普通文件（管道、套接字或设备）；不予读取。</translation>
    </message>
</context>
<context>
    <name>runlens::ImportStatus</name>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Importing</source>
        <translation>导入中</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>Imported with problems</source>
        <translation>已导入（有问题）</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Double-click to open</source>
        <translation>双击打开</translation>
    </message>
    <message>
        <source>Not read yet</source>
        <translation>暂不读取</translation>
    </message>
</context>
<context>
    <name>runlens::Report</name>
    <message>
        <source>Run folder: %1</source>
        <translation>运行文件夹：%1</translation>
    </message>
    <message>
        <source>run %1 (%2 files)</source>
        <translation>运行 %1（%2 个文件）</translation>
    </message>
    <message>
        <source>No training artifacts found.</source>
        <translation>未找到训练产物。</translation>
    </message>
    <message>
        <source>The walk stopped at the entry limit; some files were not scanned.</source>
        <translation>遍历在达到条目上限时停止；部分文件未被扫描。</translation>
    </message>
    <message>
        <source>ends in an incomplete record: the writer may still be adding to it</source>
        <translation>以不完整的记录结尾：写入程序可能仍在追加内容</translation>
    </message>
    <message>
        <source>  scalars %1: %2 points, steps %3..%4</source>
        <translation>  标量 %1：%2 个数据点，步 %3..%4</translation>
    </message>
    <message>
        <source>  trace: %1 events (%2), %3 tracks, %4 steps, %5 memory events, %6 flows, span %7 ms</source>
        <translation>  跟踪：%1 个事件（%2），%3 条轨道，%4 个迭代步，%5 个内存事件，%6 条流，跨度 %7 ms</translation>
    </message>
    <message>
        <source>    %1: %2 calls, %3 ms total, %4 ms self</source>
        <translation>    %1：%2 次调用，总计 %3 ms，自身 %4 ms</translation>
    </message>
    <message>
        <source>  graph (%1): %2 nodes, %3 edges, %4 groups, depth %5, %6 subgraphs, %7 weights/constants/inputs/outputs</source>
        <translation>  计算图（%1）：%2 个节点，%3 条边，%4 个分组，深度 %5，%6 个子图，%7 个权重/常量/输入/输出</translation>
    </message>
    <message>
        <source>    op types: %1</source>
        <translation>    算子类型：%1</translation>
    </message>
    <message>
        <source>  min %1  max %2  mean %3  std %4  NaN %5  +Inf %6  -Inf %7  zeros %8</source>
        <translation>  最小值 %1  最大值 %2  均值 %3  标准差 %4  NaN %5  +Inf %6  -Inf %7  零值 %8</translation>
    </message>
    <message>
        <source>  tensor: %1</source>
        <translation>  张量：%1</translation>
    </message>
    <message>
        <source>  lineage %1: %2</source>
        <translation>  谱系 %1：%2</translation>
    </message>
    <message>
        <source>  %1 %2: %3 kept, steps %4..%5</source>
        <translation>  %1 %2：保留 %3 个，步 %4..%5</translation>
    </message>
    <message>
        <source>  hparam %1: %2</source>
        <translation>  超参数 %1：%2</translation>
    </message>
    <message>
        <source>  hparams metrics: %1</source>
        <translation>  超参数指标：%1</translation>
    </message>
    <message>
        <source>  hparams session: %1</source>
        <translation>  超参数会话：%1</translation>
    </message>
    <message>
        <source>  memory %1: peak %2 MiB</source>
        <translation>  内存 %1：峰值 %2 MiB</translation>
    </message>
    <message>
        <source>  memory %1: peak %2 MiB at %3 ms</source>
        <translation>  内存 %1：峰值 %2 MiB，位于 %3 ms</translation>
    </message>
    <message>
        <source>  memory %1: peak %2 MiB at node %3</source>
        <translation>  内存 %1：峰值 %2 MiB，位于节点 %3</translation>
    </message>
    <message>
        <source>, in %1</source>
        <translation>，在 %1 中</translation>
    </message>
    <message>
        <source>, step %1</source>
        <translation>，第 %1 步</translation>
    </message>
    <message>
        <source>, capacity %1 MiB</source>
        <translation>，容量 %1 MiB</translation>
    </message>
    <message numerus="yes">
        <source>, %n out-of-memory event(s)</source>
        <translation>
            <numerusform>，%n 次内存不足事件</numerusform>
        </translation>
    </message>
    <message>
        <source> (relative to an unknown baseline)</source>
        <translation>（相对于未知基线）</translation>
    </message>
    <message numerus="yes">
        <source>  profiler rank %1 (%2): %n step(s)</source>
        <translation>
            <numerusform>  性能分析卡 %1（%2）：%n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>, average step %1 ms</source>
        <translation>，平均迭代步 %1 ms</translation>
    </message>
    <message>
        <source>, top operator type %1 (%2%)</source>
        <translation>，耗时最多的算子类型 %1（%2%）</translation>
    </message>
    <message numerus="yes">
        <source>  data pipeline rank %1: %n op(s), bottleneck %2</source>
        <translation>
            <numerusform>  数据处理流水线卡 %1：%n 个算子，瓶颈 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  data pipeline rank %1: %n op(s), no bottleneck</source>
        <translation>
            <numerusform>  数据处理流水线卡 %1：%n 个算子，无瓶颈</numerusform>
        </translation>
    </message>
    <message>
        <source>  metadata %1: %2</source>
        <translation>  元数据 %1：%2</translation>
    </message>
    <message>
        <source>  embeddings %1: %2 points x %3 dimensions</source>
        <translation>  嵌入 %1：%2 个点 × %3 维</translation>
    </message>
</context>
<context>
    <name>runlens::SummaryTensorSet</name>
    <message>
        <source>the summary holds no values for this tensor.</source>
        <translation>摘要中没有此张量的值。</translation>
    </message>
    <message>
        <source>the recorded values are fewer than the recorded shape needs.</source>
        <translation>记录的值少于记录的形状所需的数量。</translation>
    </message>
</context>
<context>
    <name>runlens::TensorCompare</name>
    <message>
        <source>Cannot compare %1 of shape %2 with %3 of shape %4: the shapes differ.</source>
        <translation>无法比较形状为 %2 的 %1 与形状为 %4 的 %3：形状不同。</translation>
    </message>
    <message>
        <source>Cannot compare %1: its data is shorter than its shape %2 needs.</source>
        <translation>无法比较 %1：其数据比形状 %2 所需的短。</translation>
    </message>
    <message>
        <source>The comparison was cancelled.</source>
        <translation>比较已取消。</translation>
    </message>
    <message>
        <source>Cannot compare %L1 elements at once (at most %L2): compare a slice of the tensors.</source>
        <translation>无法一次比较 %L1 个元素（最多 %L2 个）：请比较张量的切片。</translation>
    </message>
    <message>
        <source>Not enough memory to compare %L1 elements: compare a slice of the tensors.</source>
        <translation>内存不足，无法比较 %L1 个元素：请比较张量的切片。</translation>
    </message>
</context>
<context>
    <name>runlens::accuracy</name>
    <message>
        <source>%1 more problems with entries or values of this dump were skipped the same way</source>
        <translation>此转储中另有 %1 个条目或值的问题，已按同样方式跳过</translation>
    </message>
    <message>
        <source>reading was canceled; the entries read before are kept</source>
        <translation>读取已取消；之前读取的条目已保留</translation>
    </message>
    <message>
        <source>not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <source>dump.json is empty; the dump was probably stopped before its first flush</source>
        <translation>dump.json 为空；转储可能在第一次写盘前就已停止</translation>
    </message>
    <message>
        <source>not an msprobe dump.json: the top level is not an object</source>
        <translation>不是 msprobe 的 dump.json：顶层不是对象</translation>
    </message>
    <message>
        <source>not enough memory to read dump.json; the entries read before are kept</source>
        <translation>内存不足，无法读取 dump.json；之前读取的条目已保留</translation>
    </message>
    <message>
        <source>no &apos;data&apos; object: this is not an msprobe dump.json</source>
        <translation>没有 &apos;data&apos; 对象：这不是 msprobe 的 dump.json</translation>
    </message>
    <message>
        <source>&apos;data&apos; is not an object of entries; nothing can be read from it</source>
        <translation>&apos;data&apos; 不是条目对象；无法从中读取任何内容</translation>
    </message>
    <message numerus="yes">
        <source>dump.json ends early; the %n entries before the cut are kept (a run that stopped while msprobe was writing leaves such a file)</source>
        <translation>
            <numerusform>dump.json 提前结束；截断处之前的 %n 个条目已保留（msprobe 写入时训练中止会留下这样的文件）</numerusform>
        </translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a string (%2); ignored</source>
        <translation>&apos;%1&apos; 不是字符串（%2）；已忽略</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; appears twice; the later record is ignored</source>
        <translation>条目 &apos;%1&apos; 出现两次；已忽略后一条记录</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; is not an object (%2); skipped</source>
        <translation>条目 &apos;%1&apos; 不是对象（%2）；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; is not named as msprobe names APIs and modules; its parts are unknown</source>
        <translation>条目 &apos;%1&apos; 不符合 msprobe 对 API 和模块的命名方式；无法解析其组成部分</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: &apos;%2&apos; is neither a list nor an object (%3); ignored</source>
        <translation>条目 &apos;%1&apos;：&apos;%2&apos; 既不是列表也不是对象（%3）；已忽略</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;, %2: &apos;%3&apos; is not %4 (%5); ignored</source>
        <translation>条目 &apos;%1&apos;，%2：&apos;%3&apos; 不是%4（%5）；已忽略</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a list of sizes</source>
        <translation>尺寸列表</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>the file is empty; ignored</source>
        <translation>文件为空；已忽略</translation>
    </message>
    <message>
        <source>the top level is not an object; ignored</source>
        <translation>顶层不是对象；已忽略</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: the parent is not a name (%2); ignored</source>
        <translation>&apos;%1&apos;：父节点不是名称（%2）；已忽略</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: the stack is not a list of frames (%2); ignored</source>
        <translation>&apos;%1&apos;：调用栈不是帧列表（%2）；已忽略</translation>
    </message>
    <message>
        <source>stack &apos;%1&apos; is not [names, frames] (%2); ignored</source>
        <translation>调用栈 &apos;%1&apos; 不是 [名称, 帧] 形式（%2）；已忽略</translation>
    </message>
    <message>
        <source>%1 tensors named in dump.json have no file in %2 (the first: %3)</source>
        <translation>dump.json 中列出的 %1 个张量在 %2 中没有对应文件（第一个：%3）</translation>
    </message>
    <message>
        <source>%1 files in %2 are named by no entry of dump.json (a run that stopped before msprobe wrote dump.json again leaves such files)</source>
        <translation>%2 中有 %1 个文件没有被 dump.json 的任何条目引用（msprobe 再次写入 dump.json 前训练中止会留下这样的文件）</translation>
    </message>
    <message>
        <source>no dump.json here: an msprobe dump folder (step*/rank*/) holds one</source>
        <translation>此处没有 dump.json：msprobe 转储文件夹（step*/rank*/）中应有一个</translation>
    </message>
    <message>
        <source>cannot read the file: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <source>The dtypes differ (%1 and %2).</source>
        <translation>数据类型不同（%1 与 %2）。</translation>
    </message>
    <message>
        <source>The shapes differ (%1 and %2): not compared element by element.</source>
        <translation>形状不同（%1 与 %2）：未逐元素比较。</translation>
    </message>
    <message>
        <source>The data is shorter than the shape needs.</source>
        <translation>数据比形状所需的短。</translation>
    </message>
    <message>
        <source>The tensors are empty.</source>
        <translation>张量为空。</translation>
    </message>
    <message>
        <source>No element is finite on both sides.</source>
        <translation>没有两侧都为有限值的元素。</translation>
    </message>
    <message>
        <source>Every bench value is zero: no cosine similarity.</source>
        <translation>标杆侧的值全为零：无法计算余弦相似度。</translation>
    </message>
    <message>
        <source>Every target value is zero: no cosine similarity.</source>
        <translation>待测侧的值全为零：无法计算余弦相似度。</translation>
    </message>
    <message>
        <source>Dump comparison</source>
        <translation>转储比对</translation>
    </message>
    <message>
        <source>Bench: `%1`  
Target: `%2`  
Mode: %3</source>
        <translation>标杆：`%1`  
待测：`%2`  
模式：%3</translation>
    </message>
    <message>
        <source>First divergence: %1 (%2)</source>
        <translation>首个分歧点：%1（%2）</translation>
    </message>
    <message>
        <source>No divergence found.</source>
        <translation>未发现分歧。</translation>
    </message>
    <message>
        <source>%1 matched (%2 pass, %3 warning, %4 error); %5 unmatched in the bench, %6 in the target.</source>
        <translation>已匹配 %1 项（%2 项通过，%3 项警告，%4 项错误）；标杆侧 %5 项、待测侧 %6 项未匹配。</translation>
    </message>
    <message>
        <source>The mapping is not valid JSON: %1</source>
        <translation>映射文件不是有效的 JSON：%1</translation>
    </message>
    <message>
        <source>Line %1 of the mapping: unknown section &apos;%2&apos; (rows, apis, modules or classes).</source>
        <translation>映射文件第 %1 行：未知的小节 &apos;%2&apos;（应为 rows、apis、modules 或 classes）。</translation>
    </message>
    <message>
        <source>Line %1 of the mapping is not &apos;name: name&apos;.</source>
        <translation>映射文件第 %1 行不是 &apos;名称: 名称&apos; 形式。</translation>
    </message>
    <message>
        <source>%1: the msprobe dump could not be read.</source>
        <translation>%1：无法读取 msprobe 转储。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>%1 is neither a dump folder, a dump.json nor a checkpoint (.pt, .npz, .safetensors).</source>
        <translation>%1 既不是转储文件夹、dump.json，也不是检查点（.pt、.npz、.safetensors）。</translation>
    </message>
    <message>
        <source>%1 holds no msprobe dump and no tensor dump.</source>
        <translation>%1 中既没有 msprobe 转储也没有张量转储。</translation>
    </message>
    <message>
        <source>The shapes differ (%1 and %2).</source>
        <translation>形状不同（%1 与 %2）。</translation>
    </message>
    <message>
        <source>No data file on one side.</source>
        <translation>一侧没有数据文件。</translation>
    </message>
    <message>
        <source>Not a tensor.</source>
        <translation>不是张量。</translation>
    </message>
    <message>
        <source>Paired by call order: the call counters differ.</source>
        <translation>按调用顺序配对：调用计数不同。</translation>
    </message>
    <message>
        <source>Bench: %1</source>
        <translation>标杆：%1</translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation>待测：%1</translation>
    </message>
    <message>
        <source>The comparison was cancelled.</source>
        <translation>比对已取消。</translation>
    </message>
    <message>
        <source>Entry %1 of the api mapping needs one ms_api and one pt_api name.</source>
        <translation>API 映射的第 %1 项需要一个 ms_api 和一个 pt_api 名称。</translation>
    </message>
    <message>
        <source>Entry %1 of the api mapping (%2): %3 and %4 differ in length.</source>
        <translation>API 映射的第 %1 项（%2）：%3 与 %4 的长度不同。</translation>
    </message>
    <message>
        <source>Line %1 of the api mapping: &apos;%2&apos; is not an argument slot.</source>
        <translation>API 映射第 %1 行：“%2”不是参数序号。</translation>
    </message>
    <message>
        <source>Line %1 of the api mapping is not &apos;key: value&apos;.</source>
        <translation>API 映射第 %1 行不是“键: 值”的形式。</translation>
    </message>
    <message>
        <source>Line %1 of the api mapping: unknown key &apos;%2&apos; (ms_api, pt_api, ms_args, pt_args, ms_outputs, pt_outputs, ms_parameters, pt_parameters, ms_parameters_grad, pt_parameters_grad).</source>
        <translation>API 映射第 %1 行：未知的键“%2”（应为 ms_api、pt_api、ms_args、pt_args、ms_outputs、pt_outputs、ms_parameters、pt_parameters、ms_parameters_grad、pt_parameters_grad）。</translation>
    </message>
    <message>
        <source>Line %1 of the api mapping: &apos;%2&apos; appears twice in one entry.</source>
        <translation>API 映射第 %1 行：“%2”在同一项中出现了两次。</translation>
    </message>
    <message>
        <source>Line %1 of the api mapping: &apos;%2&apos; is not a list of argument slots.</source>
        <translation>API 映射第 %1 行：“%2”不是参数序号列表。</translation>
    </message>
    <message>
        <source>Entry %1 of the api mapping is not an object.</source>
        <translation>API 映射的第 %1 项不是对象。</translation>
    </message>
    <message>
        <source>Entry %1 of the api mapping: unknown key &apos;%2&apos;.</source>
        <translation>API 映射的第 %1 项：未知的键“%2”。</translation>
    </message>
    <message>
        <source>Entry %1 of the api mapping: &apos;%2&apos; holds something other than argument slots.</source>
        <translation>API 映射的第 %1 项：“%2”中含有参数序号以外的内容。</translation>
    </message>
    <message>
        <source>Entry %1 of the api mapping: &apos;%2&apos; is neither a name nor a list.</source>
        <translation>API 映射的第 %1 项：“%2”既不是名称也不是列表。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: the msprobe dumps could not be read.</source>
        <translation>%1：无法读取 msprobe dump。</translation>
    </message>
    <message>
        <source>%1 is only in the bench: its rows are listed unmatched.</source>
        <translation>%1 只存在于标杆侧：其各行列为未匹配。</translation>
    </message>
    <message>
        <source>%1 is only in the target: its rows are listed unmatched.</source>
        <translation>%1 只存在于待测侧：其各行列为未匹配。</translation>
    </message>
</context>
<context>
    <name>runlens::advisor</name>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>no analyser measures %1</source>
        <translation>没有分析器度量 %1</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>tensor %1</source>
        <translation>张量 %1</translation>
    </message>
    <message>
        <source>op %1</source>
        <translation>算子 %1</translation>
    </message>
    <message>
        <source>device %1</source>
        <translation>设备 %1</translation>
    </message>
    <message>
        <source>link %1</source>
        <translation>链路 %1</translation>
    </message>
    <message>
        <source>%1 (threshold %2 %3)</source>
        <translation>%1（阈值 %2 %3）</translation>
    </message>
    <message>
        <source>%1 error(s), %2 warning(s), %3 info(s); %4 of %5 rules evaluated</source>
        <translation>%1 个错误，%2 个警告，%3 条提示；已评估 %4/%5 条规则</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Information</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Advisor report for %1</source>
        <translation>%1 的诊断报告</translation>
    </message>
    <message>
        <source>No findings.</source>
        <translation>没有发现。</translation>
    </message>
    <message>
        <source>where: %1</source>
        <translation>位置：%1</translation>
    </message>
    <message>
        <source>value: %1</source>
        <translation>值：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n occurrence(s)</source>
        <translation>
            <numerusform>出现 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>advice: %1</source>
        <translation>建议：%1</translation>
    </message>
    <message>
        <source>evidence: %1</source>
        <translation>证据：%1</translation>
    </message>
    <message>
        <source>Not evaluated:</source>
        <translation>未评估：</translation>
    </message>
    <message>
        <source>RunLens Advisor report</source>
        <translation>RunLens 诊断报告</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>文件夹：%1</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Occurrences</source>
        <translation>出现次数</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>evaluated</source>
        <translation>已评估</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Performance</source>
        <translation>性能</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Distributed</source>
        <translation>分布式</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source> (rank %1)</source>
        <translation> （rank %1）</translation>
    </message>
    <message>
        <source>step interval</source>
        <translation>迭代间隙</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>步耗时</translation>
    </message>
    <message>
        <source>no distributed run is loaded (a MindSpore cluster or a trace per rank)</source>
        <translation>未加载分布式运行（MindSpore 集群或每个 rank 一份性能数据）</translation>
    </message>
    <message>
        <source>no rank has step times</source>
        <translation>没有任何 rank 有步耗时</translation>
    </message>
    <message>
        <source>the cluster has no link bandwidths</source>
        <translation>集群没有链路带宽数据</translation>
    </message>
    <message>
        <source>stragglers need per-rank PyTorch traces with communication kernels in common steps</source>
        <translation>检测拖慢的卡需要每个 rank 的 PyTorch 性能数据，且公共步中包含通信核函数</translation>
    </message>
    <message>
        <source>the cluster has no communication times</source>
        <translation>集群没有通信耗时数据</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>no memory profile is loaded</source>
        <translation>未加载内存分析数据</translation>
    </message>
    <message>
        <source>the memory profile does not give the device&apos;s capacity</source>
        <translation>内存分析数据未给出设备容量</translation>
    </message>
    <message>
        <source>no profiler steps on the memory&apos;s clock to compare memory across steps</source>
        <translation>内存时钟上没有性能分析步，无法跨步比较内存</translation>
    </message>
    <message>
        <source>no MindSpore profiler output is loaded</source>
        <translation>未加载 MindSpore 性能分析输出</translation>
    </message>
    <message>
        <source>the MindSpore step trace has no iteration interval</source>
        <translation>MindSpore 迭代轨迹没有迭代间隙</translation>
    </message>
    <message>
        <source>the profiler output has no data pipeline files</source>
        <translation>性能分析输出中没有数据管道文件</translation>
    </message>
    <message>
        <source>no host queue file (device_queue_profiling or dataset_iterator_profiling) was found</source>
        <translation>未找到主机队列文件（device_queue_profiling 或 dataset_iterator_profiling）</translation>
    </message>
    <message>
        <source>no minddata_cpu_utilization file was found</source>
        <translation>未找到 minddata_cpu_utilization 文件</translation>
    </message>
    <message>
        <source>the profiler output has no minddata pipeline ops</source>
        <translation>性能分析输出中没有 minddata 管道算子</translation>
    </message>
    <message>
        <source>infinite</source>
        <translation>无穷大</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>no scalar series is loaded</source>
        <translation>未加载标量序列</translation>
    </message>
    <message>
        <source>no scalar tag looks like a loss (none contains &quot;loss&quot;)</source>
        <translation>没有看起来像损失的标量标签（没有标签包含 &quot;loss&quot;）</translation>
    </message>
    <message>
        <source>no loss series has enough finite points to compare two windows</source>
        <translation>没有损失序列有足够的有限值点来比较两个窗口</translation>
    </message>
    <message>
        <source>no loss series has enough positive finite points for a spike baseline</source>
        <translation>没有损失序列有足够的正有限值点来建立尖峰基线</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>the trace has no GPU or NPU streams (a CPU-only profile)</source>
        <translation>性能数据中没有 GPU 或 NPU 流（仅 CPU 的分析数据）</translation>
    </message>
    <message>
        <source>the trace links no runtime launch to its kernel</source>
        <translation>性能数据未将任何运行时启动关联到其核函数</translation>
    </message>
    <message>
        <source>the trace has no communication kernels</source>
        <translation>性能数据中没有通信核函数</translation>
    </message>
    <message>
        <source>the trace has no CPU events to split into steps</source>
        <translation>性能数据中没有可按步切分的 CPU 事件</translation>
    </message>
    <message>
        <source>no profiler trace is loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>the trace has no CPU threads with operators</source>
        <translation>性能数据中没有带算子的 CPU 线程</translation>
    </message>
    <message>
        <source>the trace was recorded without input shapes (record_shapes=False)</source>
        <translation>性能数据录制时未记录输入形状（record_shapes=False）</translation>
    </message>
    <message>
        <source> at step %1</source>
        <translation> 在第 %1 步</translation>
    </message>
    <message>
        <source> The run&apos;s first overflow is %1; what weights and gradients show after it follows from it and is not reported again.</source>
        <translation>该运行的第一次溢出是 %1；之后权重和梯度表现出的情况都由它引起，不再另行报告。</translation>
    </message>
    <message>
        <source>no tensor dumps, tensor files or weight/gradient histograms are loaded</source>
        <translation>未加载张量转储、张量文件或权重/梯度直方图</translation>
    </message>
    <message>
        <source>no tensor values could be read</source>
        <translation>无法读取任何张量值</translation>
    </message>
    <message>
        <source>no weight is recorded at step 0</source>
        <translation>第 0 步没有记录权重</translation>
    </message>
    <message>
        <source>no weight is recorded at two steps</source>
        <translation>没有在两个步上都记录的权重</translation>
    </message>
    <message>
        <source>no weight tensor is dumped at two steps (histograms do not give the update ratio)</source>
        <translation>没有在两个步上都转储的权重张量（直方图无法给出更新比例）</translation>
    </message>
    <message>
        <source>no gradient tensors or histograms are loaded</source>
        <translation>未加载梯度张量或直方图</translation>
    </message>
    <message>
        <source>no gradient is recorded at two steps or more</source>
        <translation>没有任何梯度在两步或更多步被记录</translation>
    </message>
    <message>
        <source>fewer than three layers have finite weight gradients recorded at the same step</source>
        <translation>在同一步记录了有限权重梯度的层少于三个</translation>
    </message>
    <message>
        <source>no ReLU activation is dumped</source>
        <translation>没有转储 ReLU 激活</translation>
    </message>
    <message>
        <source>no sigmoid or tanh activation is dumped</source>
        <translation>没有转储 sigmoid 或 tanh 激活</translation>
    </message>
    <message>
        <source>no float16 tensor or fp16 copy is dumped</source>
        <translation>没有转储 float16 张量或 fp16 副本</translation>
    </message>
    <message>
        <source> (%1 of its values that are non-zero in %2 are exactly zero here: they underflowed)</source>
        <translation>（在 %2 中非零的值里有 %1 在这里恰好为零：它们发生了下溢）</translation>
    </message>
    <message>
        <source>comparison %1</source>
        <translation>比对 %1</translation>
    </message>
    <message>
        <source>cosine %1</source>
        <translation>余弦相似度 %1</translation>
    </message>
    <message>
        <source>max absolute error %1</source>
        <translation>最大绝对误差 %1</translation>
    </message>
    <message>
        <source>max relative error %1</source>
        <translation>最大相对误差 %1</translation>
    </message>
    <message>
        <source>%1 values underflow</source>
        <translation>%1 个值下溢</translation>
    </message>
    <message>
        <source>%1 values overflow</source>
        <translation>%1 个值上溢</translation>
    </message>
    <message>
        <source>%1 NaN/Inf mismatches</source>
        <translation>%1 处 NaN/Inf 不一致</translation>
    </message>
    <message>
        <source>%1 relative difference %2</source>
        <translation>%1 相对差 %2</translation>
    </message>
    <message>
        <source>CRC %1 in the bench, %2 in the target</source>
        <translation>标杆侧 CRC 为 %1，待测侧为 %2</translation>
    </message>
    <message>
        <source>no metric could be computed</source>
        <translation>无法计算任何指标</translation>
    </message>
    <message>
        <source>its outputs fail while its inputs pass</source>
        <translation>其输出未通过而输入通过</translation>
    </message>
    <message>
        <source>a parameter of it differs</source>
        <translation>其某个参数不同</translation>
    </message>
    <message>
        <source>its inputs already differ (the error comes from before the dump or from an op it does not record)</source>
        <translation>其输入已经不同（误差来自转储之前，或来自未被记录的算子）</translation>
    </message>
    <message>
        <source>%1 NaN and %2 infinite values on one side only among %3</source>
        <translation>%3 个值中有 %1 个 NaN 和 %2 个无穷值只出现在一侧</translation>
    </message>
    <message>
        <source>the target&apos;s Max or Min is NaN or infinite while the bench&apos;s are finite</source>
        <translation>待测侧的 Max 或 Min 为 NaN 或无穷，而标杆侧为有限值</translation>
    </message>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <source>no dump comparison was run</source>
        <translation>尚未进行转储比对</translation>
    </message>
    <message>
        <source>no two hosts or ranks with InfiniBand traffic were recorded</source>
        <translation>没有记录到两台及以上主机或 rank 的 InfiniBand 流量</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>process CPU</source>
        <translation>进程 CPU</translation>
    </message>
    <message>
        <source>no two hosts or ranks with system metrics were recorded</source>
        <translation>没有记录到两台及以上主机或 rank 的系统指标</translation>
    </message>
    <message>
        <source>below</source>
        <translation>低于</translation>
    </message>
    <message>
        <source>above</source>
        <translation>高于</translation>
    </message>
    <message>
        <source>no system metrics were recorded (runlens record)</source>
        <translation>没有记录系统指标（runlens record）</translation>
    </message>
    <message>
        <source>no GPU utilisation was recorded</source>
        <translation>没有记录 GPU 利用率</translation>
    </message>
    <message>
        <source>no swap usage was recorded</source>
        <translation>没有记录交换分区用量</translation>
    </message>
    <message>
        <source>no available memory was recorded</source>
        <translation>没有记录可用内存</translation>
    </message>
    <message>
        <source>the trace&apos;s steps show no forward and backward phases (no autograd ops or phase annotations)</source>
        <translation>迹线的迭代步中没有前向与反向阶段（没有 autograd 算子或阶段标注）</translation>
    </message>
</context>
<context>
    <name>runlens::advisor::AdvisorFormat</name>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>tensor %1</source>
        <translation>张量 %1</translation>
    </message>
    <message>
        <source>op %1</source>
        <translation>算子 %1</translation>
    </message>
    <message>
        <source>link %1</source>
        <translation>链路 %1</translation>
    </message>
    <message>
        <source>Chart %1</source>
        <translation>图表 %1</translation>
    </message>
    <message>
        <source>Histogram %1</source>
        <translation>直方图 %1</translation>
    </message>
    <message>
        <source>Tensor %1</source>
        <translation>张量 %1</translation>
    </message>
    <message>
        <source>Graph node %1</source>
        <translation>计算图节点 %1</translation>
    </message>
    <message>
        <source>Timeline %1 – %2</source>
        <translation>时间线 %1 – %2</translation>
    </message>
    <message>
        <source>Memory of %1 at %2</source>
        <translation>%1 在 %2 时的内存</translation>
    </message>
    <message>
        <source>Data pipeline</source>
        <translation>数据管道</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
</context>
<context>
    <name>runlens::advisor::Rules</name>
    <message>
        <source>Loss became NaN or infinite</source>
        <extracomment>resources/rules/accuracy.json, rule loss-nan: title</extracomment>
        <translation>损失变为 NaN 或无穷大</translation>
    </message>
    <message>
        <source>{tag} of run {run} is {kind} at step {step}; the last finite value was {last_finite} at step {last_finite_step} ({count} non-finite points in all).</source>
        <extracomment>resources/rules/accuracy.json, rule loss-nan: message</extracomment>
        <translation>运行 {run} 的 {tag} 在第 {step} 步变为 {kind}；最后一个有限值为第 {last_finite_step} 步的 {last_finite}（共 {count} 个非有限值点）。</translation>
    </message>
    <message>
        <source>Lower the learning rate, add gradient clipping, and check the data of that step for invalid values.</source>
        <extracomment>resources/rules/accuracy.json, rule loss-nan: advice</extracomment>
        <translation>降低学习率，加入梯度裁剪，并检查该步的数据中是否有无效值。</translation>
    </message>
    <message>
        <source>Loss is not decreasing</source>
        <extracomment>resources/rules/accuracy.json, rule loss-not-decreasing: title</extracomment>
        <translation>损失未下降</translation>
    </message>
    <message>
        <source>The mean of {tag} over steps {window_start}-{to_step} ({last_mean}) is only {value} below the {window} points before ({previous_mean}); the threshold is {threshold}.</source>
        <extracomment>resources/rules/accuracy.json, rule loss-not-decreasing: message</extracomment>
        <translation>{tag} 在第 {window_start}-{to_step} 步的均值（{last_mean}）仅比之前 {window} 个点的均值（{previous_mean}）低 {value}；阈值为 {threshold}。</translation>
    </message>
    <message>
        <source>If the run has not converged yet, raise the learning rate or check that the optimizer updates the model (frozen layers, gradients cut off, a learning-rate schedule stuck at zero); if it has converged, stop training or lower the learning rate.</source>
        <extracomment>resources/rules/accuracy.json, rule loss-not-decreasing: advice</extracomment>
        <translation>如果运行尚未收敛，请提高学习率，或检查优化器是否在更新模型（层被冻结、梯度被截断、学习率调度停在零）；如果已经收敛，请停止训练或降低学习率。</translation>
    </message>
    <message>
        <source>Loss spike</source>
        <extracomment>resources/rules/accuracy.json, rule loss-spike: title</extracomment>
        <translation>损失突增</translation>
    </message>
    <message>
        <source>Look at the batch of that step for bad samples or labels; lower the learning rate or warm it up, and clip gradients.</source>
        <extracomment>resources/rules/accuracy.json, rule loss-spike: advice</extracomment>
        <translation>检查该步的批次中是否有异常样本或标签；降低学习率或使用学习率预热，并裁剪梯度。</translation>
    </message>
    <message>
        <source>Tensor overflow (NaN or Inf)</source>
        <extracomment>resources/rules/accuracy.json, rule tensor-overflow: title</extracomment>
        <translation>张量溢出（NaN 或 Inf）</translation>
    </message>
    <message>
        <source>Check the inputs of layer {layer} at that step; lower the learning rate, add gradient clipping or loss scaling, and guard divisions, logarithms and square roots against zero and negative values.</source>
        <extracomment>resources/rules/accuracy.json, rule tensor-overflow: advice</extracomment>
        <translation>检查层 {layer} 在该步的输入；降低学习率，加入梯度裁剪或损失缩放，并防止除法、对数和平方根遇到零或负值。</translation>
    </message>
    <message>
        <source>Gradient exploding (NaN or Inf)</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-exploding: title</extracomment>
        <translation>梯度爆炸（NaN 或 Inf）</translation>
    </message>
    <message>
        <source>Lower the learning rate, clip the gradient norm, use loss scaling with mixed precision, and check the loss of that step.</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-exploding: advice</extracomment>
        <translation>降低学习率，裁剪梯度范数，在混合精度下使用损失缩放，并检查该步的损失。</translation>
    </message>
    <message>
        <source>Gradient norm too large</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-norm-too-large: title</extracomment>
        <translation>梯度范数过大</translation>
    </message>
    <message>
        <source>Clip the gradient norm (for example torch.nn.utils.clip_grad_norm_), lower the learning rate, or normalise the inputs.</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-norm-too-large: advice</extracomment>
        <translation>裁剪梯度范数（例如 torch.nn.utils.clip_grad_norm_），降低学习率，或对输入进行归一化。</translation>
    </message>
    <message>
        <source>Gradient vanishing</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-vanishing: title</extracomment>
        <translation>梯度消失</translation>
    </message>
    <message>
        <source>Use activations that do not saturate (ReLU, GELU), residual connections or normalisation layers, and an initialisation suited to the activation (He, Xavier).</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-vanishing: advice</extracomment>
        <translation>使用不会饱和的激活函数（ReLU、GELU）、残差连接或归一化层，并采用与激活函数相匹配的初始化方法（He、Xavier）。</translation>
    </message>
    <message>
        <source>Gradients vanish towards the input layers</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-vanishing-depth: title</extracomment>
        <translation>梯度向输入层逐渐消失</translation>
    </message>
    <message>
        <source>The early layers barely learn: replace sigmoid/tanh by ReLU-like activations, add normalisation or residual connections, and initialise for the activation.</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-vanishing-depth: advice</extracomment>
        <translation>靠前的层几乎学不到东西：将 sigmoid/tanh 替换为类 ReLU 激活函数，加入归一化或残差连接，并按激活函数选择初始化方法。</translation>
    </message>
    <message>
        <source>Weight initialised to zero</source>
        <extracomment>resources/rules/accuracy.json, rule weight-initialization: title</extracomment>
        <translation>权重被初始化为零</translation>
    </message>
    <message>
        <source>{value} of the values of {tensor} are zero at step 0.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-initialization: message</extracomment>
        <translation>{tensor} 在第 0 步有 {value} 的值为零。</translation>
    </message>
    <message>
        <source>Check the initialisation of layer {layer}: all-zero weights make its units identical and they never learn apart.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-initialization: advice</extracomment>
        <translation>检查层 {layer} 的初始化：全零权重会使其各单元完全相同，且永远无法分化学习。</translation>
    </message>
    <message>
        <source>Weight initialised with an abnormal range</source>
        <extracomment>resources/rules/accuracy.json, rule weight-initialization-range: title</extracomment>
        <translation>权重初始化范围异常</translation>
    </message>
    <message>
        <source>{tensor} spans {min} to {max} at step 0; its largest magnitude {value} is above {threshold}.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-initialization-range: message</extracomment>
        <translation>{tensor} 在第 0 步的取值范围为 {min} 到 {max}；其最大绝对值 {value} 高于 {threshold}。</translation>
    </message>
    <message>
        <source>Check the initialisation of layer {layer}: use a scaled scheme (He, Xavier) for its fan-in.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-initialization-range: advice</extracomment>
        <translation>检查层 {layer} 的初始化：按其扇入（fan-in）使用带缩放的初始化方法（He、Xavier）。</translation>
    </message>
    <message>
        <source>Weight not changed</source>
        <extracomment>resources/rules/accuracy.json, rule weight-not-changed: title</extracomment>
        <translation>权重未发生变化</translation>
    </message>
    <message>
        <source>{tensor} did not change between {value} of its {pairs} recorded step pairs (first between steps {from_step} and {to_step}): layer {layer} looks frozen.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-not-changed: message</extracomment>
        <translation>{tensor} 在其 {pairs} 对已记录的相邻步中有 {value} 未发生变化（第一次出现在第 {from_step} 步与第 {to_step} 步之间）：层 {layer} 似乎被冻结了。</translation>
    </message>
    <message>
        <source>Check requires_grad of layer {layer}, that its parameters are passed to the optimizer, and that no detach() or stop_gradient cuts it off.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-not-changed: advice</extracomment>
        <translation>检查层 {layer} 的 requires_grad、其参数是否已传给优化器，以及是否有 detach() 或 stop_gradient 截断了它。</translation>
    </message>
    <message>
        <source>Weight changes too fast</source>
        <extracomment>resources/rules/accuracy.json, rule weight-change-too-large: title</extracomment>
        <translation>权重变化过快</translation>
    </message>
    <message>
        <source>{tensor} changes by {value} of its mean magnitude per step (mean over steps {from_step}-{to_step}, largest {largest} at step {largest_step}), above {threshold}.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-change-too-large: message</extracomment>
        <translation>{tensor} 每步的变化量为其平均绝对值的 {value}（第 {from_step}-{to_step} 步的均值，最大为第 {largest_step} 步的 {largest}），高于 {threshold}。</translation>
    </message>
    <message>
        <source>Lower the learning rate of layer {layer} or clip its gradients; updates this large make training unstable.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-change-too-large: advice</extracomment>
        <translation>降低层 {layer} 的学习率或裁剪其梯度；如此大的更新会使训练不稳定。</translation>
    </message>
    <message>
        <source>Weight changes too slowly</source>
        <extracomment>resources/rules/accuracy.json, rule weight-change-too-small: title</extracomment>
        <translation>权重变化过慢</translation>
    </message>
    <message>
        <source>{tensor} changes by only {value} of its mean magnitude per step (mean over steps {from_step}-{to_step}), below {threshold}.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-change-too-small: message</extracomment>
        <translation>{tensor} 每步的变化量仅为其平均绝对值的 {value}（第 {from_step}-{to_step} 步的均值），低于 {threshold}。</translation>
    </message>
    <message>
        <source>Raise the learning rate of layer {layer}, or check for vanishing gradients and a learning-rate schedule that decayed too early.</source>
        <extracomment>resources/rules/accuracy.json, rule weight-change-too-small: advice</extracomment>
        <translation>提高层 {layer} 的学习率，或检查是否存在梯度消失，以及学习率调度是否衰减过早。</translation>
    </message>
    <message>
        <source>Tensor all zero</source>
        <extracomment>resources/rules/accuracy.json, rule tensor-all-zero: title</extracomment>
        <translation>张量全为零</translation>
    </message>
    <message>
        <source>Check the inputs of layer {layer}: a tensor of zeros carries no information and stops gradients.</source>
        <extracomment>resources/rules/accuracy.json, rule tensor-all-zero: advice</extracomment>
        <translation>检查层 {layer} 的输入：全零张量不携带任何信息，并会阻断梯度。</translation>
    </message>
    <message>
        <source>Dead ReLU</source>
        <extracomment>resources/rules/accuracy.json, rule activation-dead-relu: title</extracomment>
        <translation>ReLU 神经元死亡</translation>
    </message>
    <message>
        <source>Lower the learning rate, use LeakyReLU or GELU, check the bias initialisation and normalise the inputs of layer {layer}.</source>
        <extracomment>resources/rules/accuracy.json, rule activation-dead-relu: advice</extracomment>
        <translation>降低学习率，使用 LeakyReLU 或 GELU，检查偏置的初始化，并对层 {layer} 的输入进行归一化。</translation>
    </message>
    <message>
        <source>Saturated sigmoid or tanh</source>
        <extracomment>resources/rules/accuracy.json, rule activation-saturation: title</extracomment>
        <translation>sigmoid 或 tanh 饱和</translation>
    </message>
    <message>
        <source>Normalise the inputs of layer {layer} (BatchNorm, LayerNorm), lower the initial weight scale, or use a non-saturating activation.</source>
        <extracomment>resources/rules/accuracy.json, rule activation-saturation: advice</extracomment>
        <translation>对层 {layer} 的输入进行归一化（BatchNorm、LayerNorm），减小初始权重的尺度，或使用不会饱和的激活函数。</translation>
    </message>
    <message>
        <source>Values outside the float16 range</source>
        <extracomment>resources/rules/accuracy.json, rule fp16-risk: title</extracomment>
        <translation>数值超出 float16 范围</translation>
    </message>
    <message>
        <source>Use dynamic loss scaling (torch.cuda.amp.GradScaler), keep this tensor in float32 or bfloat16, or rescale it before the cast.</source>
        <extracomment>resources/rules/accuracy.json, rule fp16-risk: advice</extracomment>
        <translation>使用动态损失缩放（torch.cuda.amp.GradScaler），将该张量保持为 float32 或 bfloat16，或在转换前对其重新缩放。</translation>
    </message>
    <message>
        <source>Data loading takes a large share of the step</source>
        <extracomment>resources/rules/data.json, rule dataloader-share: title</extracomment>
        <translation>数据加载占用了步时间的很大比例</translation>
    </message>
    <message>
        <source>Data loading of run {run}{where} takes {value} of the step time ({time_ms} ms of {step_ms} ms per step over {steps} steps, threshold {threshold}); step {worst_step} is the worst at {worst_share} %.</source>
        <extracomment>resources/rules/data.json, rule dataloader-share: message</extracomment>
        <translation>运行 {run}{where} 的数据加载占用了步时间的 {value}（在 {steps} 步中平均每步 {step_ms} ms 中占 {time_ms} ms，阈值 {threshold}）；最差的是第 {worst_step} 步，占 {worst_share} %。</translation>
    </message>
    <message>
        <source>Use DataLoader(num_workers &gt; 0, pin_memory=True, persistent_workers=True) and prefetching, move expensive preprocessing out of __getitem__, or cache decoded samples.</source>
        <extracomment>resources/rules/data.json, rule dataloader-share: advice</extracomment>
        <translation>使用 DataLoader(num_workers &gt; 0, pin_memory=True, persistent_workers=True) 并启用预取，将开销大的预处理移出 __getitem__，或缓存解码后的样本。</translation>
    </message>
    <message>
        <source>Data is loaded in the training process</source>
        <extracomment>resources/rules/data.json, rule synchronous-dataloader: title</extracomment>
        <translation>数据在训练进程中加载</translation>
    </message>
    <message>
        <source>Run {run}{where} loaded {count} batches in the training process (a DataLoader with num_workers=0): the model waits while each batch is read.</source>
        <extracomment>resources/rules/data.json, rule synchronous-dataloader: message</extracomment>
        <translation>运行 {run}{where} 在训练进程中加载了 {count} 个批次（DataLoader 的 num_workers=0）：模型在读取每个批次时都需要等待。</translation>
    </message>
    <message>
        <source>Set num_workers of the DataLoader to the number of CPU cores you can spare (and pin_memory=True), so batches are prepared while the model trains.</source>
        <extracomment>resources/rules/data.json, rule synchronous-dataloader: advice</extracomment>
        <translation>将 DataLoader 的 num_workers 设为可腾出的 CPU 核数（并设置 pin_memory=True），使批次在模型训练的同时准备好。</translation>
    </message>
    <message>
        <source>Host data queue is often empty</source>
        <extracomment>resources/rules/data.json, rule host-queue-empty: title</extracomment>
        <translation>主机数据队列经常为空</translation>
    </message>
    <message>
        <source>The host queue of run {run}{where} was empty in {empty} of {steps} steps ({value}, threshold {threshold}): the data pipeline does not keep up.</source>
        <extracomment>resources/rules/data.json, rule host-queue-empty: message</extracomment>
        <translation>运行 {run}{where} 的主机队列在 {steps} 步中有 {empty} 步为空（{value}，阈值 {threshold}）：数据管道跟不上。</translation>
    </message>
    <message>
        <source>Speed up data processing: raise num_parallel_workers of the slow operators (see the pipeline bottleneck), enable caching, or simplify augmentations.</source>
        <extracomment>resources/rules/data.json, rule host-queue-empty: advice</extracomment>
        <translation>加快数据处理：提高慢算子的 num_parallel_workers（参见数据管道瓶颈），启用缓存，或简化数据增强。</translation>
    </message>
    <message>
        <source>Data pipeline operator is a bottleneck</source>
        <extracomment>resources/rules/data.json, rule pipeline-bottleneck: title</extracomment>
        <translation>数据管道算子成为瓶颈</translation>
    </message>
    <message>
        <source>{op} of the data pipeline of run {run}{where} is a bottleneck: {reason} {op_advice}</source>
        <extracomment>resources/rules/data.json, rule pipeline-bottleneck: message</extracomment>
        <translation>运行 {run}{where} 数据管道中的 {op} 是瓶颈：{reason} {op_advice}</translation>
    </message>
    <message>
        <source>Give the slow operator more parallel workers, cache or simplify its work, and check that the source reads from fast storage.</source>
        <extracomment>resources/rules/data.json, rule pipeline-bottleneck: advice</extracomment>
        <translation>为慢算子分配更多并行 worker，缓存或简化其工作，并确认数据源从高速存储读取。</translation>
    </message>
    <message>
        <source>A rank is slower than the others</source>
        <extracomment>resources/rules/distributed.json, rule slow-rank: title</extracomment>
        <translation>某个 rank 比其他 rank 慢</translation>
    </message>
    <message>
        <source>Rank {rank} of run {run} has a {figure} of {rank_ms} ms, {value} above the mean of {mean_ms} ms over {ranks} ranks (threshold {threshold}).</source>
        <extracomment>resources/rules/distributed.json, rule slow-rank: message</extracomment>
        <translation>运行 {run} 的 rank {rank} 的{figure}为 {rank_ms} ms，比 {ranks} 个 rank 的均值 {mean_ms} ms 高 {value}（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>Compare that rank&apos;s timeline with a fast one: check its data loading, its device (thermal throttling, other processes) and its share of the work (uneven shards or pipeline stages).</source>
        <extracomment>resources/rules/distributed.json, rule slow-rank: advice</extracomment>
        <translation>将该 rank 的时间线与较快的 rank 进行比较：检查其数据加载、设备（过热降频、其他进程）以及其工作量占比（分片或流水线阶段不均衡）。</translation>
    </message>
    <message>
        <source>A communication link is slower than its kind</source>
        <extracomment>resources/rules/distributed.json, rule slow-link: title</extracomment>
        <translation>某条通信链路比同类链路慢</translation>
    </message>
    <message>
        <source>Link {link} of run {run} moves {bandwidth} GB/s, {value} below the mean of {type_mean} GB/s of {type} links (threshold {threshold}).</source>
        <extracomment>resources/rules/distributed.json, rule slow-link: message</extracomment>
        <translation>运行 {run} 的链路 {link} 传输速率为 {bandwidth} GB/s，比 {type} 链路的均值 {type_mean} GB/s 低 {value}（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>Check the cabling, topology and NIC/switch of that link, and whether another job shares it; collective algorithms may route around a slow link.</source>
        <extracomment>resources/rules/distributed.json, rule slow-link: advice</extracomment>
        <translation>检查该链路的线缆、拓扑和网卡/交换机，以及是否有其他作业共享该链路；集合通信算法可能会绕开较慢的链路。</translation>
    </message>
    <message>
        <source>A rank holds back the collectives</source>
        <extracomment>resources/rules/distributed.json, rule straggler-rank: title</extracomment>
        <translation>某个 rank 拖慢了集合通信</translation>
    </message>
    <message>
        <source>Rank {rank} of run {run} started the last collective latest in {steps} of {comparable_steps} steps ({value}, threshold {threshold}), on average {lateness_ms} ms after the other ranks; the others waited for it.</source>
        <extracomment>resources/rules/distributed.json, rule straggler-rank: message</extracomment>
        <translation>运行 {run} 的 rank {rank} 在 {comparable_steps} 步中有 {steps} 步最晚开始最后一次集合通信（{value}，阈值 {threshold}），平均比其他 rank 晚 {lateness_ms} ms；其他 rank 都在等待它。</translation>
    </message>
    <message>
        <source>Look at what that rank does before the collective: uneven data, extra logging or checkpointing on that rank, or a slower device.</source>
        <extracomment>resources/rules/distributed.json, rule straggler-rank: advice</extracomment>
        <translation>查看该 rank 在集合通信之前做了什么：数据不均衡、该 rank 上额外的日志记录或检查点保存，或者设备较慢。</translation>
    </message>
    <message>
        <source>Communication takes a large share of the cluster&apos;s time</source>
        <extracomment>resources/rules/distributed.json, rule communication-rate: title</extracomment>
        <translation>通信占用了集群时间的很大比例</translation>
    </message>
    <message>
        <source>Communication of run {run} takes {value} of computation plus communication across {ranks} ranks (threshold {threshold}).</source>
        <extracomment>resources/rules/distributed.json, rule communication-rate: message</extracomment>
        <translation>在 {ranks} 个 rank 上，运行 {run} 的通信占计算加通信时间的 {value}（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>Reduce communication: larger per-device batches, gradient accumulation, a parallel strategy that communicates less (data vs model vs pipeline parallel), or overlapping communication with computation.</source>
        <extracomment>resources/rules/distributed.json, rule communication-rate: advice</extracomment>
        <translation>减少通信：增大每个设备的批大小，使用梯度累积，采用通信更少的并行策略（数据并行、模型并行或流水线并行），或让通信与计算重叠。</translation>
    </message>
    <message>
        <source>Memory peak close to the device capacity</source>
        <extracomment>resources/rules/memory.json, rule memory-peak: title</extracomment>
        <translation>内存峰值接近设备容量</translation>
    </message>
    <message>
        <source>{device} of run {run}{where} peaked at {peak} of {capacity} ({value}, threshold {threshold}).</source>
        <extracomment>resources/rules/memory.json, rule memory-peak: message</extracomment>
        <translation>运行 {run}{where} 的 {device} 内存峰值达到 {peak}，容量为 {capacity}（{value}，阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>Reduce memory: a smaller batch with gradient accumulation, mixed precision, activation checkpointing, or freeing tensors kept across steps; set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation.</source>
        <extracomment>resources/rules/memory.json, rule memory-peak: advice</extracomment>
        <translation>减少内存占用：使用更小的批并配合梯度累积、混合精度、激活检查点，或释放跨步保留的张量；设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True 以缓解碎片化。</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <extracomment>resources/rules/memory.json, rule memory-oom: title</extracomment>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>{device} of run {run}{where} ran out of memory {count} times; the first failed allocation asked for {requested} with {free} free.</source>
        <extracomment>resources/rules/memory.json, rule memory-oom: message</extracomment>
        <translation>运行 {run}{where} 的 {device} 发生了 {count} 次内存不足；第一次失败的分配请求了 {requested}，当时空闲 {free}。</translation>
    </message>
    <message>
        <source>Lower the batch size, use mixed precision or activation checkpointing, and look at the memory curve before the failure for tensors that should have been freed.</source>
        <extracomment>resources/rules/memory.json, rule memory-oom: advice</extracomment>
        <translation>减小批大小，使用混合精度或激活检查点，并查看失败前的内存曲线，找出本应被释放的张量。</translation>
    </message>
    <message>
        <source>Allocated memory grows step after step</source>
        <extracomment>resources/rules/memory.json, rule memory-growth: title</extracomment>
        <translation>已分配内存逐步增长</translation>
    </message>
    <message>
        <source>The lowest allocated memory of each step on {device} of run {run}{where} rose in {value} consecutive steps, from step {first_step} to {last_step}, by {growth} ({per_step} per step; threshold {threshold} steps).</source>
        <extracomment>resources/rules/memory.json, rule memory-growth: message</extracomment>
        <translation>运行 {run}{where} 中 {device} 上每步的最低已分配内存连续 {value} 步上升，从第 {first_step} 步到第 {last_step} 步共增长 {growth}（每步 {per_step}；阈值 {threshold} 步）。</translation>
    </message>
    <message>
        <source>Something keeps tensors alive across steps: accumulating losses without .item() or .detach(), lists of outputs, or caches. Take a memory snapshot and look at what the growing allocations are.</source>
        <extracomment>resources/rules/memory.json, rule memory-growth: advice</extracomment>
        <translation>有东西让张量跨步存活：累加损失时未使用 .item() 或 .detach()、保存输出的列表或缓存。请抓取内存快照，查看增长的分配是什么。</translation>
    </message>
    <message>
        <source>Device is idle much of the time</source>
        <extracomment>resources/rules/performance.json, rule low-device-utilization: title</extracomment>
        <translation>设备大部分时间处于空闲状态</translation>
    </message>
    <message>
        <source>{device} of run {run}{where} was busy {value} of the {span_ms} ms its {steps} profiled steps took; below {threshold}.</source>
        <extracomment>resources/rules/performance.json, rule low-device-utilization: message</extracomment>
        <translation>运行 {run}{where} 的 {device} 在 {steps} 个已剖析步所用的 {span_ms} ms 中忙碌时间占 {value}；低于 {threshold}。</translation>
    </message>
    <message>
        <source>Find what the device waits for in the timeline: data loading, host-side Python, synchronisations (.item(), .cpu(), prints) or small kernels. Increase the batch size or fuse work (torch.compile, CUDA graphs) so the device has more to do per launch.</source>
        <extracomment>resources/rules/performance.json, rule low-device-utilization: advice</extracomment>
        <translation>在时间线中找出设备在等待什么：数据加载、主机侧 Python、同步操作（.item()、.cpu()、print）或小核函数。增大批大小或融合工作（torch.compile、CUDA graphs），让设备每次启动有更多工作可做。</translation>
    </message>
    <message>
        <source>Kernels are shorter than their launch calls</source>
        <extracomment>resources/rules/performance.json, rule host-bound-launches: title</extracomment>
        <translation>核函数比其启动调用还短</translation>
    </message>
    <message>
        <source>{shorter} of {kernels} kernels of run {run}{where} ({value}) ran shorter than the runtime call that launched them (mean kernel {kernel_us} µs, mean launch {launch_us} µs): the GPU waits for the CPU.</source>
        <extracomment>resources/rules/performance.json, rule host-bound-launches: message</extracomment>
        <translation>运行 {run}{where} 的 {kernels} 个核函数中有 {shorter} 个（{value}）的执行时间短于启动它们的运行时调用（核函数平均 {kernel_us} µs，启动平均 {launch_us} µs）：GPU 在等待 CPU。</translation>
    </message>
    <message>
        <source>The host cannot issue work fast enough: use larger batches, fuse small operators (torch.compile), capture the step with CUDA graphs, or move Python overhead out of the training loop.</source>
        <extracomment>resources/rules/performance.json, rule host-bound-launches: advice</extracomment>
        <translation>主机下发工作的速度不够快：使用更大的批，融合小算子（torch.compile），用 CUDA graphs 捕获整个步，或将 Python 开销移出训练循环。</translation>
    </message>
    <message>
        <source>Kernels wait in a long launch queue</source>
        <extracomment>resources/rules/performance.json, rule long-launch-queue: title</extracomment>
        <translation>核函数在很长的启动队列中等待</translation>
    </message>
    <message>
        <source>{delayed} of {kernels} kernels of run {run}{where} ({value}) started more than {limit_us} µs after their launch call (mean delay {delay_us} µs, longest {max_delay_us} µs; threshold {threshold}): the host runs ahead and the device&apos;s own work sets the pace.</source>
        <extracomment>resources/rules/performance.json, rule long-launch-queue: message</extracomment>
        <translation>运行 {run}{where} 的 {kernels} 个核函数中有 {delayed} 个（{value}）在启动调用后超过 {limit_us} µs 才开始（平均延迟 {delay_us} µs，最长 {max_delay_us} µs；阈值 {threshold}）：主机跑在前面，节奏由设备自身的工作决定。</translation>
    </message>
    <message>
        <source>Speed-ups must come from the device side: fewer or faster kernels (mixed precision, fused operators, torch.compile, larger tiles). If the delays come in bursts, look for a synchronisation (.item(), cudaStreamSynchronize, a blocking copy) before the longest one.</source>
        <extracomment>resources/rules/performance.json, rule long-launch-queue: advice</extracomment>
        <translation>提速必须来自设备侧：更少或更快的核函数（混合精度、融合算子、torch.compile、更大的分块）。如果延迟是成批出现的，请在最长的延迟之前查找同步操作（.item()、cudaStreamSynchronize、阻塞式拷贝）。</translation>
    </message>
    <message>
        <source>Communication takes a large share of the step</source>
        <extracomment>resources/rules/performance.json, rule communication-share: title</extracomment>
        <translation>通信占用了步时间的很大比例</translation>
    </message>
    <message>
        <source>Communication of run {run}{where} takes {value} of the step time ({time_ms} ms of {step_ms} ms per step on average, threshold {threshold}); step {worst_step} is the worst at {worst_share} %.</source>
        <extracomment>resources/rules/performance.json, rule communication-share: message</extracomment>
        <translation>运行 {run}{where} 的通信占用了步时间的 {value}（平均每步 {step_ms} ms 中占 {time_ms} ms，阈值 {threshold}）；最差的是第 {worst_step} 步，占 {worst_share} %。</translation>
    </message>
    <message>
        <source>Overlap communication with computation (DDP bucket sizes, gradient accumulation with no_sync), compress gradients, or check that the interconnect (NVLink, InfiniBand) is used.</source>
        <extracomment>resources/rules/performance.json, rule communication-share: advice</extracomment>
        <translation>让通信与计算重叠（调整 DDP 桶大小、配合 no_sync 使用梯度累积），压缩梯度，或检查是否使用了高速互连（NVLink、InfiniBand）。</translation>
    </message>
    <message>
        <source>Communication is not hidden under computation</source>
        <extracomment>resources/rules/performance.json, rule low-communication-overlap: title</extracomment>
        <translation>通信未被计算掩盖</translation>
    </message>
    <message>
        <source>Only {value} of the {communication_ms} ms of communication of run {run}{where} overlaps computation; {exposed_ms} ms is exposed (threshold {threshold}).</source>
        <extracomment>resources/rules/performance.json, rule low-communication-overlap: message</extracomment>
        <translation>运行 {run}{where} 的 {communication_ms} ms 通信中只有 {value} 与计算重叠；有 {exposed_ms} ms 暴露在外（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>Let communication run while the backward pass computes: register gradients in buckets (DDP bucket_cap_mb), avoid synchronising calls between collectives, and use separate streams for communication.</source>
        <extracomment>resources/rules/performance.json, rule low-communication-overlap: advice</extracomment>
        <translation>让通信在反向传播计算期间进行：按桶注册梯度（DDP bucket_cap_mb），避免在集合通信之间调用同步操作，并为通信使用单独的流。</translation>
    </message>
    <message>
        <source>One operator dominates the run</source>
        <extracomment>resources/rules/performance.json, rule dominant-operator: title</extracomment>
        <translation>单个算子占据了运行的主要时间</translation>
    </message>
    <message>
        <source>{op} takes {value} of the {kind} time of run {run}{where} ({calls} calls, {time_ms} ms); threshold {threshold}.</source>
        <extracomment>resources/rules/performance.json, rule dominant-operator: message</extracomment>
        <translation>{op} 占运行 {run}{where} 的{kind}时间的 {value}（{calls} 次调用，{time_ms} ms）；阈值 {threshold}。</translation>
    </message>
    <message>
        <source>Optimise that operator first: check its input shapes and dtype (tensor cores need fp16/bf16 and dimensions that are multiples of 8), try a fused or vendor implementation, or reduce how often it is called.</source>
        <extracomment>resources/rules/performance.json, rule dominant-operator: advice</extracomment>
        <translation>优先优化该算子：检查其输入形状和 dtype（Tensor Core 需要 fp16/bf16 且维度为 8 的倍数），尝试融合实现或厂商实现，或减少其调用次数。</translation>
    </message>
    <message>
        <source>zero_grad fills gradients with zeros</source>
        <extracomment>resources/rules/performance.json, rule zero-grad-not-set-to-none: title</extracomment>
        <translation>zero_grad 用零填充梯度</translation>
    </message>
    <message>
        <source>{count} zero_grad calls of run {run}{where} ran aten::zero_ on the gradients instead of dropping them.</source>
        <extracomment>resources/rules/performance.json, rule zero-grad-not-set-to-none: message</extracomment>
        <translation>运行 {run}{where} 中有 {count} 次 zero_grad 调用对梯度执行了 aten::zero_，而不是直接丢弃它们。</translation>
    </message>
    <message>
        <source>Call optimizer.zero_grad(set_to_none=True) (the default since PyTorch 2.0): it skips one memory write per parameter every step.</source>
        <extracomment>resources/rules/performance.json, rule zero-grad-not-set-to-none: advice</extracomment>
        <translation>调用 optimizer.zero_grad(set_to_none=True)（自 PyTorch 2.0 起为默认值）：每一步可为每个参数省去一次内存写入。</translation>
    </message>
    <message>
        <source>Optimizer updates one tensor at a time</source>
        <extracomment>resources/rules/performance.json, rule single-tensor-optimizer: title</extracomment>
        <translation>优化器逐个更新张量</translation>
    </message>
    <message>
        <source>{op} ran {count} times in run {run}{where}: the optimizer updates parameters one by one.</source>
        <extracomment>resources/rules/performance.json, rule single-tensor-optimizer: message</extracomment>
        <translation>{op} 在运行 {run}{where} 中执行了 {count} 次：优化器在逐个更新参数。</translation>
    </message>
    <message>
        <source>Pass foreach=True (or fused=True on CUDA) to the optimizer so that all parameters are updated with a few multi-tensor kernels.</source>
        <extracomment>resources/rules/performance.json, rule single-tensor-optimizer: advice</extracomment>
        <translation>向优化器传入 foreach=True（在 CUDA 上也可用 fused=True），以便用少数几个多张量核函数更新所有参数。</translation>
    </message>
    <message>
        <source>Convolution with bias followed by BatchNorm</source>
        <extracomment>resources/rules/performance.json, rule conv-bias-before-batchnorm: title</extracomment>
        <translation>带偏置的卷积后接 BatchNorm</translation>
    </message>
    <message>
        <source>{count} convolutions of run {run}{where} have a bias and are followed by BatchNorm (first inputs {detail}); BatchNorm subtracts the mean, so the bias is wasted work.</source>
        <extracomment>resources/rules/performance.json, rule conv-bias-before-batchnorm: message</extracomment>
        <translation>运行 {run}{where} 中有 {count} 个卷积带有偏置且后接 BatchNorm（第一个的输入为 {detail}）；BatchNorm 会减去均值，因此偏置是无用功。</translation>
    </message>
    <message>
        <source>Create the convolution with bias=False when BatchNorm follows it.</source>
        <extracomment>resources/rules/performance.json, rule conv-bias-before-batchnorm: advice</extracomment>
        <translation>当卷积后接 BatchNorm 时，创建卷积时设置 bias=False。</translation>
    </message>
    <message>
        <source>Half-precision matrix product with dimensions not a multiple of 8</source>
        <extracomment>resources/rules/performance.json, rule fp16-matmul-alignment: title</extracomment>
        <translation>半精度矩阵乘法的维度不是 8 的倍数</translation>
    </message>
    <message>
        <source>{count} calls of {op} in run {run}{where} multiply half-precision matrices whose last dimensions are not multiples of 8 (first: {detail}); tensor cores are not used.</source>
        <extracomment>resources/rules/performance.json, rule fp16-matmul-alignment: message</extracomment>
        <translation>运行 {run}{where} 中有 {count} 次 {op} 调用所乘的半精度矩阵最后几维不是 8 的倍数（第一次：{detail}）；未使用 Tensor Core。</translation>
    </message>
    <message>
        <source>Pad the hidden sizes, vocabulary and batch dimensions to multiples of 8 so that fp16/bf16 products run on tensor cores.</source>
        <extracomment>resources/rules/performance.json, rule fp16-matmul-alignment: advice</extracomment>
        <translation>将隐藏层大小、词表和批维度填充为 8 的倍数，使 fp16/bf16 乘法在 Tensor Core 上运行。</translation>
    </message>
    <message>
        <source>Tensor filled on one device, then copied to another</source>
        <extracomment>resources/rules/performance.json, rule copy-after-fill: title</extracomment>
        <translation>张量在一个设备上填充后又复制到另一个设备</translation>
    </message>
    <message>
        <source>{count} tensors of run {run}{where} were initialised ({detail}) and then copied with aten::to: the tensor is made twice.</source>
        <extracomment>resources/rules/performance.json, rule copy-after-fill: message</extracomment>
        <translation>运行 {run}{where} 中有 {count} 个张量先被初始化（{detail}），再通过 aten::to 复制：同一张量被创建了两次。</translation>
    </message>
    <message>
        <source>Create the tensor directly on its device, e.g. torch.zeros(shape, device=&apos;cuda&apos;) instead of torch.zeros(shape).to(&apos;cuda&apos;).</source>
        <extracomment>resources/rules/performance.json, rule copy-after-fill: advice</extracomment>
        <translation>直接在目标设备上创建张量，例如使用 torch.zeros(shape, device=&apos;cuda&apos;) 而不是 torch.zeros(shape).to(&apos;cuda&apos;)。</translation>
    </message>
    <message>
        <source>Long step interval: the device waits for data</source>
        <extracomment>resources/rules/performance.json, rule step-interval: title</extracomment>
        <translation>步间隔过长：设备在等待数据</translation>
    </message>
    <message>
        <source>The step interval of run {run}{where} averages {value} per step ({share} % of a {step_ms} ms step, threshold {threshold}); step {worst_step} waited {worst_ms} ms.</source>
        <extracomment>resources/rules/performance.json, rule step-interval: message</extracomment>
        <translation>运行 {run}{where} 的步间隔平均每步 {value}（占 {step_ms} ms 步时间的 {share} %，阈值 {threshold}）；第 {worst_step} 步等待了 {worst_ms} ms。</translation>
    </message>
    <message>
        <source>The device waits between steps for the next batch: check the data pipeline (queues, bottleneck ops), use dataset sink mode, and raise num_parallel_workers of the slow map operations.</source>
        <extracomment>resources/rules/performance.json, rule step-interval: advice</extracomment>
        <translation>设备在步与步之间等待下一个批次：检查数据管道（队列、瓶颈算子），使用数据集下沉（sink）模式，并提高慢 map 操作的 num_parallel_workers。</translation>
    </message>
    <message>
        <source>Host CPU is nearly saturated</source>
        <extracomment>resources/rules/performance.json, rule cpu-busy: title</extracomment>
        <translation>主机 CPU 接近饱和</translation>
    </message>
    <message>
        <source>The host CPU of run {run}{where} was busy {value} on average over {processors} processors (threshold {threshold}).</source>
        <extracomment>resources/rules/performance.json, rule cpu-busy: message</extracomment>
        <translation>运行 {run}{where} 的主机 CPU 在 {processors} 个处理器上的平均占用率为 {value}（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>Data processing may be limited by the CPU: lower num_parallel_workers where ops are idle, move augmentations to the device, or cache preprocessed data.</source>
        <extracomment>resources/rules/performance.json, rule cpu-busy: advice</extracomment>
        <translation>数据处理可能受限于 CPU：在算子空闲的地方降低 num_parallel_workers，将数据增强移到设备上，或缓存预处理后的数据。</translation>
    </message>
    <message>
        <source>{tag} jumps to {loss} at step {step}, {value} times its recent level {baseline} (the median of the {window} values before it, or {floor} of where the loss started if that is higher).</source>
        <extracomment>resources/rules/accuracy.json, rule loss-spike: message</extracomment>
        <translation>{tag} 在第 {step} 步跃升至 {loss}，是其近期水平 {baseline} 的 {value} 倍（近期水平取此前 {window} 个值的中位数；若损失初始值的 {floor} 更高，则取后者）。</translation>
    </message>
    <message>
        <source>The global norm of the {tensors} recorded gradients is {value}{at_step}, above {threshold}.</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-norm-too-large: message</extracomment>
        <translation>已记录的 {tensors} 个梯度的全局范数{at_step} 为 {value}，高于 {threshold}。</translation>
    </message>
    <message>
        <source>The mean absolute gradient of {tensor} is {value}{at_step} (the median over its recorded steps: {steps}), below {threshold}.</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-vanishing: message</extracomment>
        <translation>{tensor} 的梯度平均绝对值{at_step} 为 {value}（其已记录的 {steps} 步的中位数），低于 {threshold}。</translation>
    </message>
    <message>
        <source>The gradient RMS of the first layer {first_layer} ({first_rms}) is {value} times that of the last layer {last_layer} ({last_rms}) across {layers} layers{at_step} (the median over the recorded steps: {steps}; the lowest is {lowest}).</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-vanishing-depth: message</extracomment>
        <translation>跨越 {layers} 层，第一层 {first_layer} 的梯度 RMS（{first_rms}）{at_step} 是最后一层 {last_layer}（{last_rms}）的 {value} 倍（已记录的 {steps} 步的中位数；最低为 {lowest}）。</translation>
    </message>
    <message>
        <source>Parameter receives no gradient</source>
        <extracomment>resources/rules/accuracy.json, rule no-gradient: title</extracomment>
        <translation>参数没有收到梯度</translation>
    </message>
    <message>
        <source>{parameter} receives no gradient; it may be redundant or disconnected: its gradient {tensor} is zero everywhere at {zero_steps} of {steps} recorded steps ({from_step}-{to_step}).</source>
        <extracomment>resources/rules/accuracy.json, rule no-gradient: message</extracomment>
        <translation>{parameter} 没有收到梯度，它可能是多余的或未连接到损失：其梯度 {tensor} 在已记录的 {steps} 步中有 {zero_steps} 步处处为零（第 {from_step}-{to_step} 步）。</translation>
    </message>
    <message>
        <source>If layer {layer} should learn, check that its output reaches the loss (a branch multiplied by zero, an output nobody uses, a detach() or a mask); if it is not needed, remove it or set requires_grad=False.</source>
        <extracomment>resources/rules/accuracy.json, rule no-gradient: advice</extracomment>
        <translation>如果层 {layer} 应当学习，请检查其输出是否传到了损失（乘以零的分支、无人使用的输出、detach() 或掩码）；如果不需要它，请删除它或设置 requires_grad=False。</translation>
    </message>
    <message>
        <source>{value} of the values of {tensor} are zero{at_step}.</source>
        <extracomment>resources/rules/accuracy.json, rule tensor-all-zero: message</extracomment>
        <translation>{tensor}{at_step} 有 {value} 的值为零。</translation>
    </message>
    <message>
        <source>{value} of the outputs of {tensor} are zero{at_step}: almost every unit of {layer} is dead.</source>
        <extracomment>resources/rules/accuracy.json, rule activation-dead-relu: message</extracomment>
        <translation>{tensor}{at_step} 有 {value} 的输出为零：{layer} 几乎所有单元都已死亡。</translation>
    </message>
    <message>
        <source>{value} of the outputs of {tensor} are saturated{at_step}, where the gradient through {layer} is almost zero.</source>
        <extracomment>resources/rules/accuracy.json, rule activation-saturation: message</extracomment>
        <translation>{tensor}{at_step} 有 {value} 的输出处于饱和状态，此时经过 {layer} 的梯度几乎为零。</translation>
    </message>
    <message>
        <source>{tensor} has {nan} NaN and {inf} infinite values among {elements}{at_step}: the first overflow in execution order, so layer {layer} is the likely origin ({overflowing} tensors overflow in all).{consequences}</source>
        <extracomment>resources/rules/accuracy.json, rule tensor-overflow: message</extracomment>
        <translation>{tensor}{at_step} 的 {elements} 个值中有 {nan} 个 NaN 和 {inf} 个无穷大值：这是按执行顺序出现的第一次溢出，因此层 {layer} 很可能是源头（共有 {overflowing} 个张量溢出）。{consequences}</translation>
    </message>
    <message>
        <source>Gradient {tensor} has {nan} NaN and {inf} infinite values{at_step}, the first gradient to overflow; layer {layer} is the likely origin.{consequences}</source>
        <extracomment>resources/rules/accuracy.json, rule gradient-exploding: message</extracomment>
        <translation>梯度 {tensor}{at_step} 有 {nan} 个 NaN 和 {inf} 个无穷大值，是第一个溢出的梯度；层 {layer} 很可能是源头。{consequences}</translation>
    </message>
    <message>
        <source>{value} of the non-zero values of {tensor}{at_step} lie below the float16 normal range (6.1e-5) or above its maximum (65504){underflow}.</source>
        <extracomment>resources/rules/accuracy.json, rule fp16-risk: message</extracomment>
        <translation>{tensor}{at_step} 的非零值中有 {value} 低于 float16 的正规数范围（6.1e-5）或高于其最大值（65504）{underflow}。</translation>
    </message>
    <message>
        <source>Error introduced at an op</source>
        <extracomment>resources/rules/comparison.json, rule comparison-error-introduced: title</extracomment>
        <translation>误差在某算子处引入</translation>
    </message>
    <message>
        <source>The error is born at {name}: {reason}; {metrics}. {value} rows fail in all, {propagated} of them only carry an earlier error.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-error-introduced: message</extracomment>
        <translation>误差产生于 {name}：{reason}；{metrics}。共有 {value} 行未通过，其中 {propagated} 行只是传递了更早的误差。</translation>
    </message>
    <message>
        <source>Look at op {op} first: compare its inputs, parameters and dtype on both sides (a lower precision, a fused kernel, a different implementation of the API); the rows after it only inherit the difference.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-error-introduced: advice</extracomment>
        <translation>先检查算子 {op}：比较两侧的输入、参数和数据类型（更低的精度、融合算子、API 的不同实现）；其后的行只是继承了这一差异。</translation>
    </message>
    <message>
        <source>Numbers part at an op</source>
        <extracomment>resources/rules/comparison.json, rule comparison-difference-introduced: title</extracomment>
        <translation>数值在某算子处开始分歧</translation>
    </message>
    <message>
        <source>The numbers begin to part at {name} (a warning, not an error): {reason}; {metrics}. {value} rows fail in all, {propagated} of them only carry an earlier difference.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-difference-introduced: message</extracomment>
        <translation>数值从 {name} 开始分歧（警告，而非错误）：{reason}；{metrics}。共有 {value} 行未通过，其中 {propagated} 行只是传递了更早的差异。</translation>
    </message>
    <message>
        <source>Look at op {op} first: compare its inputs, parameters and dtype on both sides (a lower precision, a fused kernel, a different implementation of the API); if the difference is expected there, raise the comparison thresholds instead.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-difference-introduced: advice</extracomment>
        <translation>先检查算子 {op}：比较两侧的输入、参数和数据类型（更低的精度、融合算子、API 的不同实现）；如果该处的差异在预期之内，请改为调高比对阈值。</translation>
    </message>
    <message>
        <source>Half precision underflow</source>
        <extracomment>resources/rules/comparison.json, rule comparison-half-underflow: title</extracomment>
        <translation>半精度下溢</translation>
    </message>
    <message>
        <source>Half precision underflow at {name}: {value} of its values are flushed to zero ({underflow} of {elements} {dtype} values are zero or below the smallest normal number where the bench&apos;s are not).</source>
        <extracomment>resources/rules/comparison.json, rule comparison-half-underflow: message</extracomment>
        <translation>{name} 处半精度下溢：{value} 的值被冲刷为零（{elements} 个 {dtype} 值中有 {underflow} 个为零或小于最小正规数，而标杆侧不是）。</translation>
    </message>
    <message>
        <source>Keep op {op} in float32, or scale its inputs (loss scaling, a normalisation before it) so small values stay within the half precision range; bfloat16 has the range of float32.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-half-underflow: advice</extracomment>
        <translation>让算子 {op} 保持 float32，或缩放其输入（损失缩放、在其前加归一化），使小值保持在半精度范围内；bfloat16 的范围与 float32 相同。</translation>
    </message>
    <message>
        <source>Half precision overflow</source>
        <extracomment>resources/rules/comparison.json, rule comparison-half-overflow: title</extracomment>
        <translation>半精度上溢</translation>
    </message>
    <message>
        <source>Half precision overflow at {name}: {value} of its {elements} {dtype} values are infinite in the target where the bench&apos;s are finite.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-half-overflow: message</extracomment>
        <translation>{name} 处半精度上溢：其 {elements} 个 {dtype} 值中有 {value} 个在待测侧为无穷，而标杆侧为有限值。</translation>
    </message>
    <message>
        <source>Keep op {op} in float32 or bfloat16, or scale its inputs down (loss scaling, clipping, a normalisation before it) so its values stay below the half precision maximum of 65504.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-half-overflow: advice</extracomment>
        <translation>让算子 {op} 保持 float32 或 bfloat16，或缩小其输入（损失缩放、裁剪、在其前加归一化），使其值保持在半精度最大值 65504 以下。</translation>
    </message>
    <message>
        <source>NaN or Inf on one side only</source>
        <extracomment>resources/rules/comparison.json, rule comparison-nonfinite-mismatch: title</extracomment>
        <translation>NaN 或 Inf 只出现在一侧</translation>
    </message>
    <message>
        <source>{name} is the first row, in execution order, with values NaN or infinite on one side only: {detail}.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-nonfinite-mismatch: message</extracomment>
        <translation>按执行顺序，{name} 是第一个只在一侧出现 NaN 或无穷值的行：{detail}。</translation>
    </message>
    <message>
        <source>Look at op {op} in the target: guard divisions, logarithms and square roots, and check its dtype&apos;s range; the rows after it inherit the NaN or Inf.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-nonfinite-mismatch: advice</extracomment>
        <translation>检查待测侧的算子 {op}：对除法、对数和平方根加保护，并检查其数据类型的范围；其后的行会继承这些 NaN 或 Inf。</translation>
    </message>
    <message>
        <source>Ops unmatched</source>
        <extracomment>resources/rules/comparison.json, rule comparison-unmatched: title</extracomment>
        <translation>算子未匹配</translation>
    </message>
    <message>
        <source>{ops} ops unmatched: {bench_ops} ops ({unmatched_bench} of {bench_rows} tensors) only in the bench, {target_ops} ops ({unmatched_target} of {target_rows} tensors) only in the target; {value} of all tensors have no partner, for example {name}.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-unmatched: message</extracomment>
        <translation>{ops} 个算子未匹配：{bench_ops} 个算子（{bench_rows} 个张量中的 {unmatched_bench} 个）只在标杆侧，{target_ops} 个算子（{target_rows} 个张量中的 {unmatched_target} 个）只在待测侧；全部张量中有 {value} 没有对应项，例如 {name}。</translation>
    </message>
    <message>
        <source>When the runs use other names for the same modules or APIs (another framework, a renamed module), give a mapping file (--mapping, or Mapping in Compare Dumps); when one side calls ops the other does not, check that both dumps cover the same step, rank, level and scope.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-unmatched: advice</extracomment>
        <translation>如果两次运行对相同的模块或 API 使用了不同的名称（另一个框架、重命名的模块），请提供映射文件（--mapping，或“比对转储”中的映射）；如果一侧调用了另一侧没有的算子，请检查两个转储是否覆盖相同的步、rank、级别和范围。</translation>
    </message>
    <message>
        <source>Shape differs</source>
        <extracomment>resources/rules/comparison.json, rule comparison-shape-differs: title</extracomment>
        <translation>形状不同</translation>
    </message>
    <message>
        <source>The shape differs at {name}: {bench_shape} in the bench, {target_shape} in the target, so its values are not compared element by element.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-shape-differs: message</extracomment>
        <translation>{name} 处形状不同：标杆侧为 {bench_shape}，待测侧为 {target_shape}，因此其值不逐元素比较。</translation>
    </message>
    <message>
        <source>Check that op {op} is called with the same arguments on both sides (batch size, sequence length, a reshape or a padding one side adds), or that the mapping pairs the right rows.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-shape-differs: advice</extracomment>
        <translation>检查算子 {op} 在两侧是否以相同的参数调用（批大小、序列长度、一侧额外的 reshape 或填充），或映射是否配对了正确的行。</translation>
    </message>
    <message>
        <source>Dtype differs</source>
        <extracomment>resources/rules/comparison.json, rule comparison-dtype-differs: title</extracomment>
        <translation>数据类型不同</translation>
    </message>
    <message>
        <source>The dtype differs at {name}: {bench_dtype} in the bench, {target_dtype} in the target.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-dtype-differs: message</extracomment>
        <translation>{name} 处数据类型不同：标杆侧为 {bench_dtype}，待测侧为 {target_dtype}。</translation>
    </message>
    <message>
        <source>If op {op} should run in the same precision on both sides, check the autocast or mixed precision settings of the target; otherwise expect the differences a lower precision brings from here on.</source>
        <extracomment>resources/rules/comparison.json, rule comparison-dtype-differs: advice</extracomment>
        <translation>如果算子 {op} 应在两侧以相同精度运行，请检查待测侧的 autocast 或混合精度设置；否则，从这里开始会出现更低精度带来的差异。</translation>
    </message>
    <message>
        <source>GPU mostly idle while the CPU is busy</source>
        <extracomment>resources/rules/system.json, rule system-gpu-idle-cpu-busy: title</extracomment>
        <translation>CPU 繁忙而 GPU 大多空闲</translation>
    </message>
    <message>
        <source>Run {run}{where}: from {start} to {end} the CPU was {cpu} % busy ({samples} samples) while the GPU was only {value} busy on average (threshold {threshold}).</source>
        <extracomment>resources/rules/system.json, rule system-gpu-idle-cpu-busy: message</extracomment>
        <translation>运行 {run}{where}：从 {start} 到 {end}，CPU 繁忙 {cpu} %（{samples} 个采样），而 GPU 平均只有 {value} 繁忙（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>The job is CPU-bound: move preprocessing off the training loop (more DataLoader workers, pin_memory, prefetching), check for operators running on the CPU, and take a short trace of that period to see what the CPU does.</source>
        <extracomment>resources/rules/system.json, rule system-gpu-idle-cpu-busy: advice</extracomment>
        <translation>作业受 CPU 限制：把预处理移出训练循环（更多 DataLoader worker、pin_memory、预取），检查是否有算子在 CPU 上运行，并对这段时间采集一小段性能数据，看看 CPU 在做什么。</translation>
    </message>
    <message>
        <source>GPU utilisation alternates between busy and idle</source>
        <extracomment>resources/rules/system.json, rule system-gpu-alternating: title</extracomment>
        <translation>GPU 利用率在繁忙与空闲之间交替</translation>
    </message>
    <message>
        <source>{gpu} of run {run}{where} was idle in {value} of the samples and busy in {busy} % of them, switching {switches} times between {start} and {end} (threshold {threshold}).</source>
        <extracomment>resources/rules/system.json, rule system-gpu-alternating: message</extracomment>
        <translation>运行 {run}{where} 的 {gpu} 在 {value} 的采样中空闲、{busy} % 的采样中繁忙，在 {start} 到 {end} 之间切换了 {switches} 次（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>The GPU waits for something between bursts of work: data loading, host-to-device copies, synchronisation or logging. Overlap them with the computation (prefetching, non_blocking copies, fewer .item() calls) and confirm with a trace.</source>
        <extracomment>resources/rules/system.json, rule system-gpu-alternating: advice</extracomment>
        <translation>GPU 在两段计算之间等待：数据加载、主机到设备的拷贝、同步或日志。让它们与计算重叠（预取、non_blocking 拷贝、减少 .item() 调用），并用性能数据确认。</translation>
    </message>
    <message>
        <source>The host swapped during the run</source>
        <extracomment>resources/rules/system.json, rule system-swap: title</extracomment>
        <translation>运行期间主机发生了换页</translation>
    </message>
    <message>
        <source>Swap in use on run {run}{where} grew by {growth} (to {peak}) between {start} and {end} (threshold {threshold} MiB).</source>
        <extracomment>resources/rules/system.json, rule system-swap: message</extracomment>
        <translation>运行 {run}{where} 的交换分区用量在 {start} 到 {end} 之间增长了 {growth}（达到 {peak}）（阈值 {threshold} MiB）。</translation>
    </message>
    <message>
        <source>Host memory ran short and pages went to disk, which slows everything on the host. Lower the DataLoader&apos;s workers or prefetch factor, free cached datasets, or use a host with more memory.</source>
        <extracomment>resources/rules/system.json, rule system-swap: advice</extracomment>
        <translation>主机内存不足，内存页被换出到磁盘，会拖慢主机上的一切。减少 DataLoader 的 worker 数或预取系数，释放缓存的数据集，或使用内存更大的主机。</translation>
    </message>
    <message>
        <source>Host memory almost exhausted</source>
        <extracomment>resources/rules/system.json, rule system-memory-low: title</extracomment>
        <translation>主机内存几乎耗尽</translation>
    </message>
    <message>
        <source>Available memory on run {run}{where} fell to {value} between {start} and {end}, with up to {used} in use (threshold {threshold}).</source>
        <extracomment>resources/rules/system.json, rule system-memory-low: message</extracomment>
        <translation>运行 {run}{where} 的可用内存在 {start} 到 {end} 之间降到 {value}，已用内存最高 {used}（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>The host is close to swapping or to the out-of-memory killer: fewer DataLoader workers, a smaller prefetch factor, memory-mapped datasets instead of loading them whole.</source>
        <extracomment>resources/rules/system.json, rule system-memory-low: advice</extracomment>
        <translation>主机接近换页或被 OOM killer 终止：减少 DataLoader worker，减小预取系数，用内存映射的数据集代替整体加载。</translation>
    </message>
    <message>
        <source>One host&apos;s InfiniBand traffic far below its peers</source>
        <extracomment>resources/rules/system.json, rule system-ib-below-peers: title</extracomment>
        <translation>某台主机的 InfiniBand 流量远低于其他主机</translation>
    </message>
    <message>
        <source>Run {run}{where} moved {mean} MiB/s over InfiniBand on average, {value} of its peers&apos; median ({peers} MiB/s; threshold {threshold}).</source>
        <extracomment>resources/rules/system.json, rule system-ib-below-peers: message</extracomment>
        <translation>运行 {run}{where} 平均通过 InfiniBand 传输 {mean} MiB/s，为其他主机中位数（{peers} MiB/s）的 {value}（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>This host may talk over another network (NCCL_IB_DISABLE, a wrong NCCL_IB_HCA or NCCL_SOCKET_IFNAME), have a port down or degraded, or do less work. Compare its NCCL environment and `ibstat` with a peer&apos;s.</source>
        <extracomment>resources/rules/system.json, rule system-ib-below-peers: advice</extracomment>
        <translation>这台主机可能走了另一张网络（NCCL_IB_DISABLE、错误的 NCCL_IB_HCA 或 NCCL_SOCKET_IFNAME），端口断开或降级，或者承担的工作更少。将它的 NCCL 环境变量和 `ibstat` 输出与其他主机比较。</translation>
    </message>
    <message>
        <source>A rank&apos;s utilisation differs from the others</source>
        <extracomment>resources/rules/system.json, rule system-rank-imbalance: title</extracomment>
        <translation>某个 rank 的利用率与其他 rank 不同</translation>
    </message>
    <message>
        <source>Ranks of one job should be equally busy: look for uneven data shards, a slower host or device, or extra work on one rank (logging, evaluation, checkpointing on rank 0).</source>
        <extracomment>resources/rules/system.json, rule system-rank-imbalance: advice</extracomment>
        <translation>同一作业的各 rank 应当同样繁忙：检查数据分片是否不均、是否有较慢的主机或设备，或某个 rank 上的额外工作（rank 0 上的日志、评估、保存检查点）。</translation>
    </message>
    <message>
        <source>The {figure} of run {run}{where} averaged {mean} %, {value} {direction} the median of all ranks ({all} %; threshold {threshold}).</source>
        <extracomment>resources/rules/system.json, rule system-rank-imbalance: message</extracomment>
        <translation>运行 {run}{where} 的{figure}平均为 {mean} %，{direction}所有 rank 的中位数（{all} %）{value}（阈值 {threshold}）。</translation>
    </message>
    <message>
        <source>Forward takes longer than backward</source>
        <extracomment>resources/rules/performance.json, rule forward-slower-than-backward: title</extracomment>
        <translation>前向耗时超过反向</translation>
    </message>
    <message>
        <source>The forward pass of run {run}{where} takes {value} times as long as the backward pass ({forward_ms} ms against {backward_ms} ms per step on average over {steps} steps, threshold {threshold}); steps {slow_steps} are above it. Backward normally costs about twice the forward.</source>
        <extracomment>resources/rules/performance.json, rule forward-slower-than-backward: message</extracomment>
        <translation>运行 {run}{where} 的前向耗时是反向的 {value} 倍（{steps} 个迭代步平均每步 {forward_ms} ms 对 {backward_ms} ms，阈值 {threshold}）；迭代步 {slow_steps} 超过阈值。反向通常约为前向的两倍。</translation>
    </message>
    <message>
        <source>Look for forward operators running on the CPU instead of the device (an unsupported op falling back, tensors left on the host, .cpu()/.item() or numpy calls inside forward) and for host-side Python work in the model; the Steps panel shows the phases per step and the timeline the forward ops of the slowest step.</source>
        <extracomment>resources/rules/performance.json, rule forward-slower-than-backward: advice</extracomment>
        <translation>查找在 CPU 而非设备上运行的前向算子（不支持的算子回退、留在主机上的张量、forward 中的 .cpu()/.item() 或 numpy 调用），以及模型中主机端的 Python 工作；迭代步面板显示每步的各阶段，时间线显示最慢迭代步的前向算子。</translation>
    </message>
</context>
<context>
    <name>runlens::app::CompareDumpsDialog</name>
    <message>
        <source>Compare Dumps</source>
        <translation>比对转储</translation>
    </message>
    <message>
        <source>Bench (reference):</source>
        <translation>标杆（参考）：</translation>
    </message>
    <message>
        <source>Target (compared):</source>
        <translation>目标（被比对）：</translation>
    </message>
    <message>
        <source>Mapping file (optional):</source>
        <translation>映射文件（可选）：</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>Mapping files (*.json *.yaml *.yml);;All files (*)</source>
        <translation>映射文件 (*.json *.yaml *.yml);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>runlens::app::MainWindow</name>
    <message>
        <source>RunLens</source>
        <translation>RunLens</translation>
    </message>
    <message>
        <source>Scalars</source>
        <translation>标量</translation>
    </message>
    <message>
        <source>Run Browser</source>
        <translation>运行浏览器</translation>
    </message>
    <message>
        <source>Chart written to %1</source>
        <translation>图表已写入 %1</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Run Folder…</source>
        <translation>打开运行文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;File…</source>
        <translation>打开文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export Chart…</source>
        <translation>导出图表(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About RunLens</source>
        <translation>关于 RunLens(&amp;A)</translation>
    </message>
    <message>
        <source>Open a run folder to begin (Ctrl+O), or drop one onto this window.</source>
        <translation>打开一个运行文件夹开始（Ctrl+O），或将文件夹拖放到此窗口。</translation>
    </message>
    <message>
        <source>Files that are still being written are read as they grow</source>
        <translation>仍在写入的文件会随着增长被持续读取</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop importing; what was read so far is kept</source>
        <translation>停止导入；已读取的内容会保留</translation>
    </message>
    <message>
        <source>Open Run Folder</source>
        <translation>打开运行文件夹</translation>
    </message>
    <message>
        <source>Open File</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Cannot Open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>%1 — RunLens</source>
        <translation>%1 — RunLens</translation>
    </message>
    <message>
        <source>Scanning %1…</source>
        <translation>正在扫描 %1…</translation>
    </message>
    <message>
        <source>No training artifacts found in %1.</source>
        <translation>在 %1 中未找到训练产物。</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s), </source>
        <translation>
            <numerusform>%n 个运行，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n scalar tag(s), </source>
        <translation>
            <numerusform>%n 个标量标签，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n point(s)</source>
        <translation>
            <numerusform>%n 个数据点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) with problems (see the Run Browser)</source>
        <translation>
            <numerusform>%n 个文件有问题（见运行浏览器）</numerusform>
        </translation>
    </message>
    <message>
        <source>● live</source>
        <translation>● 实时</translation>
    </message>
    <message>
        <source>%1: %2 files are listed, but this version of RunLens does not open them yet.</source>
        <translation>%1：%2 文件已列出，但此版本的 RunLens 尚不能打开它们。</translation>
    </message>
    <message>
        <source>There is no chart to export yet.</source>
        <translation>还没有可导出的图表。</translation>
    </message>
    <message>
        <source>Chart:</source>
        <translation>图表：</translation>
    </message>
    <message>
        <source>About RunLens</source>
        <translation>关于 RunLens</translation>
    </message>
    <message>
        <source>&lt;h3&gt;RunLens %1&lt;/h3&gt;&lt;p&gt;A desktop workbench for debugging and tuning deep-learning training runs: summaries, graphs, tensors, profiler traces and memory in one place.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;RunLens %1&lt;/h3&gt;&lt;p&gt;用于调试和调优深度学习训练的桌面工作台：摘要、计算图、张量、性能跟踪和内存尽在一处。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>New: %1</source>
        <translation>新文件：%1</translation>
    </message>
    <message numerus="yes">
        <source> and %n more file(s)</source>
        <translation>
            <numerusform>，另有 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代步</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Timeline — %1</source>
        <translation>时间线 — %1</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Node Details</source>
        <translation>节点详情</translation>
    </message>
    <message>
        <source>Show All &amp;Ranks of a Run in One Timeline</source>
        <translation>在同一时间线中显示运行的所有 Rank(&amp;R)</translation>
    </message>
    <message>
        <source>Opening a rank&apos;s trace reads the traces of every rank of its run, aligned on absolute time</source>
        <translation>打开某个 Rank 的跟踪时，会读取其运行中所有 Rank 的跟踪，并按绝对时间对齐</translation>
    </message>
    <message numerus="yes">
        <source>Reading the traces of %n rank(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个 Rank 的跟踪…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Timeline — %1 (%n rank(s))</source>
        <translation>
            <numerusform>时间线 — %1（%n 个 Rank）</numerusform>
        </translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>Source — %1:%2</source>
        <translation>源代码 — %1:%2</translation>
    </message>
    <message>
        <source>Source — %1</source>
        <translation>源代码 — %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 (and %n more dump file(s) skipped)</source>
        <translation>
            <numerusform>%1（另有 %n 个转储文件被跳过）</numerusform>
        </translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>%1 is not among the tensors read from this folder.</source>
        <translation>%1 不在从此文件夹读取的张量中。</translation>
    </message>
    <message>
        <source>Export Tensor</source>
        <translation>导出张量</translation>
    </message>
    <message>
        <source>%1: no tensor could be read from this file.</source>
        <translation>%1：无法从此文件读取任何张量。</translation>
    </message>
    <message>
        <source>The open graph has no node or module named %1.</source>
        <translation>当前打开的计算图中没有名为 %1 的节点或模块。</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>PR Curves</source>
        <translation>PR 曲线</translation>
    </message>
    <message>
        <source>Compare Runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Summary Sample &amp;Limits…</source>
        <translation>摘要采样上限(&amp;L)…</translation>
    </message>
    <message>
        <source>The new limits apply when the run folder is read again (File &gt; Reload).</source>
        <translation>新的上限在重新读取运行文件夹时生效（文件 &gt; 重新加载）。</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Data Pipeline</source>
        <translation>数据处理流水线</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Rank %1 has no timeline or profiler data open.</source>
        <translation>卡 %1 没有打开的时间线或性能分析数据。</translation>
    </message>
    <message>
        <source>Advisor</source>
        <translation>诊断助手</translation>
    </message>
    <message>
        <source>Advisor %1</source>
        <translation>诊断助手 %1</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export Findings</source>
        <translation>导出发现</translation>
    </message>
    <message>
        <source>Findings written to %1</source>
        <translation>发现已写入 %1</translation>
    </message>
    <message>
        <source>Rule files: %1</source>
        <translation>规则文件：%1</translation>
    </message>
    <message>
        <source>Cannot save the rule thresholds to %1: %2</source>
        <translation>无法将规则阈值保存到 %1：%2</translation>
    </message>
    <message>
        <source>Open a training run folder: every artifact in it is found and read</source>
        <translation>打开训练运行文件夹：自动查找并读取其中的所有产物</translation>
    </message>
    <message>
        <source>Open one file: an event file, a trace, a graph or a tensor</source>
        <translation>打开单个文件：事件文件、性能数据、计算图或张量</translation>
    </message>
    <message>
        <source>Open a folder or file opened before</source>
        <translation>打开之前打开过的文件夹或文件</translation>
    </message>
    <message>
        <source>Read the open folder again from the start</source>
        <translation>从头重新读取已打开的文件夹</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Close the open folder or file and show the welcome page</source>
        <translation>关闭已打开的文件夹或文件并显示欢迎页</translation>
    </message>
    <message>
        <source>Save a scalar chart as PNG, SVG, PDF or CSV</source>
        <translation>将标量图表保存为 PNG、SVG、PDF 或 CSV</translation>
    </message>
    <message>
        <source>Close RunLens; the layout and the open folders are remembered</source>
        <translation>关闭 RunLens；布局和已打开的文件夹会被记住</translation>
    </message>
    <message>
        <source>How many points, histograms, images and texts of each tag are kept in memory</source>
        <translation>每个标签在内存中保留多少个点、直方图、图像和文本</translation>
    </message>
    <message>
        <source>Version and what RunLens is</source>
        <translation>版本及 RunLens 简介</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Profiler</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <source>Show or hide the %1 panel</source>
        <translation>显示或隐藏%1面板</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Show or hide each panel</source>
        <translation>显示或隐藏各个面板</translation>
    </message>
    <message>
        <source>Reset Panel &amp;Layout</source>
        <translation>重置面板布局(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>List the keys of every command and panel</source>
        <translation>列出每个命令和面板的快捷键</translation>
    </message>
    <message>
        <source>Opened %1; RunLens opens one folder per window (run `runlens --new-window PATH` for another).</source>
        <translation>已打开 %1；RunLens 每个窗口只打开一个文件夹（如需另开，请运行 `runlens --new-window PATH`）。</translation>
    </message>
    <message>
        <source>Writing the demo run to %1…</source>
        <translation>正在将演示运行写入 %1…</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>Demo Run</source>
        <translation>演示运行</translation>
    </message>
    <message>
        <source>Cannot write the demo run to %1: %2
Check that the cache folder is writable.</source>
        <translation>无法将演示运行写入 %1：%2
请检查缓存文件夹是否可写。</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>Language, theme, panel defaults, number format, rules folder and sessions</source>
        <translation>语言、主题、面板默认值、数字格式、规则文件夹和会话</translation>
    </message>
    <message>
        <source>Reopen &amp;Last Session</source>
        <translation>重新打开上次会话(&amp;L)</translation>
    </message>
    <message>
        <source>Open the folders of the last session again with their docks and views</source>
        <translation>重新打开上次会话的文件夹，并恢复其面板和视图</translation>
    </message>
    <message>
        <source>There is no earlier session to reopen.</source>
        <translation>没有可重新打开的先前会话。</translation>
    </message>
    <message>
        <source>The new language is used the next time RunLens starts.</source>
        <translation>新语言将在下次启动 RunLens 时生效。</translation>
    </message>
    <message>
        <source>Put every panel back where it starts: the run on the left, training and model panels on the right, profiler panels below them</source>
        <translation>把所有面板放回初始位置：运行在左侧，训练与模型面板在右侧，性能分析面板在其下方</translation>
    </message>
    <message>
        <source>Training artifacts (*tfevents* *summary* *.json *.gz *.ir *.dot *.pb *.pbtxt *.onnx *.npy *.npz *.safetensors *.pt *.pth *.bin);;All files (*)</source>
        <translation>训练产物 (*tfevents* *summary* *.json *.gz *.ir *.dot *.pb *.pbtxt *.onnx *.npy *.npz *.safetensors *.pt *.pth *.bin);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>精度比对</translation>
    </message>
    <message>
        <source>Export Comparison</source>
        <translation>导出比对结果</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>&amp;Compare Dumps…</source>
        <translation>比对转储(&amp;C)…</translation>
    </message>
    <message>
        <source>Compare two dumps op by op: a bench and a target folder or file</source>
        <translation>逐算子比对两份转储：标杆与目标文件夹或文件</translation>
    </message>
    <message>
        <source>The row %1 is not in the Accuracy panel: compare the two dumps again.</source>
        <translation>精度面板中没有行 %1：请重新比对这两个转储。</translation>
    </message>
    <message>
        <source>The trace of rank %1 is not reachable from this computer:
%2

The Cluster shows its digest; copy the trace here, or open it where it lies, to see the rank&apos;s timeline.</source>
        <translation>在这台计算机上无法访问卡 %1 的跟踪：
%2

集群视图显示的是它的摘要；请将跟踪复制到本机，或在其所在位置打开，以查看该卡的时间线。</translation>
    </message>
    <message>
        <source>Open Rank</source>
        <translation>打开卡</translation>
    </message>
    <message>
        <source>Reading the trace of rank %1…</source>
        <translation>正在读取卡 %1 的跟踪…</translation>
    </message>
    <message>
        <source>The trace of rank %1 could not be read:
%2
%3</source>
        <translation>无法读取卡 %1 的跟踪：
%2
%3</translation>
    </message>
    <message>
        <source>Timeline — rank %1</source>
        <translation>时间线 — 卡 %1</translation>
    </message>
    <message numerus="yes">
        <source>Digesting %n rank(s) for the Cluster…</source>
        <translation>
            <numerusform>正在为集群视图生成 %n 张卡的摘要…</numerusform>
        </translation>
    </message>
    <message>
        <source>Digesting ranks for the Cluster: %1 of %2</source>
        <translation>正在为集群视图生成卡摘要：%1 / %2</translation>
    </message>
    <message numerus="yes">
        <source>Cluster of %n rank(s) ready</source>
        <translation>
            <numerusform>%n 张卡的集群已就绪</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 has no system metrics in the System panel.</source>
        <translation>%1 在系统面板中没有系统指标。</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Cancel digesting</source>
        <translation>取消摘要</translation>
    </message>
    <message>
        <source>Stop digesting ranks for the Cluster; the ranks already digested are shown</source>
        <translation>停止为集群视图生成 rank 摘要；显示已生成摘要的 rank</translation>
    </message>
    <message>
        <source>Digesting cancelled after %1 of %2 ranks</source>
        <translation>摘要已取消：已完成 %2 个 rank 中的 %1 个</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影器</translation>
    </message>
    <message>
        <source>Audio</source>
        <translation>音频</translation>
    </message>
    <message>
        <source>Export WAV</source>
        <translation>导出 WAV</translation>
    </message>
    <message>
        <source>WAV audio (*.wav)</source>
        <translation>WAV 音频 (*.wav)</translation>
    </message>
    <message>
        <source>Clip written to %1</source>
        <translation>音频片段已写入 %1</translation>
    </message>
</context>
<context>
    <name>runlens::app::NotesPanel</name>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Show the notes rendered as Markdown (click again to edit)</source>
        <translation>以 Markdown 渲染显示笔记（再次单击可编辑）</translation>
    </message>
    <message>
        <source>Notes about this run, in Markdown: what changed, what you saw, what to try next. They are kept in your settings folder, not in the run folder.</source>
        <translation>关于此运行的笔记，使用 Markdown 编写：改了什么、看到了什么、下一步尝试什么。笔记保存在您的设置文件夹中，而不是运行文件夹中。</translation>
    </message>
    <message>
        <source>Open a run folder to write notes about it.</source>
        <translation>打开一个运行文件夹后即可为其编写笔记。</translation>
    </message>
    <message>
        <source>Saved in %1</source>
        <translation>已保存到 %1</translation>
    </message>
</context>
<context>
    <name>runlens::app::RunController</name>
    <message>
        <source>Cannot show this evidence: %1</source>
        <translation>无法显示此证据：%1</translation>
    </message>
    <message>
        <source>Showing %1</source>
        <translation>正在显示 %1</translation>
    </message>
    <message>
        <source>Showing %1 at step %2</source>
        <translation>正在显示 %1（第 %2 步）</translation>
    </message>
    <message>
        <source>The tensor %1 is not in the Tensors panel.</source>
        <translation>张量 %1 不在“张量”面板中。</translation>
    </message>
    <message>
        <source>Open the trace in the Run Browser to see this evidence.</source>
        <translation>请在运行浏览器中打开该性能数据以查看此证据。</translation>
    </message>
    <message>
        <source>Link %1</source>
        <translation>链路 %1</translation>
    </message>
    <message>
        <source>Rank %1: double-click its row to open its timeline</source>
        <translation>rank %1：双击其所在行可打开其时间线</translation>
    </message>
    <message>
        <source>System metrics of %1</source>
        <translation>%1 的系统指标</translation>
    </message>
    <message>
        <source>System metrics of rank %1</source>
        <translation>rank %1 的系统指标</translation>
    </message>
</context>
<context>
    <name>runlens::app::SettingsDialog</name>
    <message>
        <source>&amp;Reopen the last session when RunLens starts without a folder</source>
        <translation>RunLens 启动时未指定文件夹则重新打开上次会话(&amp;R)</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>System (%1)</source>
        <translation>系统（%1）</translation>
    </message>
    <message>
        <source>Language of the interface; takes effect the next time RunLens starts</source>
        <translation>界面语言；下次启动 RunLens 时生效</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Colours of the window, the panels and the charts</source>
        <translation>窗口、面板和图表的颜色</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>A new language is used from the next start of RunLens.</source>
        <translation>新语言将从下次启动 RunLens 起使用。</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>Smoothing weight of the Scalars panel when RunLens starts (0 turns it off)</source>
        <translation>RunLens 启动时“标量”面板的平滑权重（0 表示关闭）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation>相对时间</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>挂钟时间</translation>
    </message>
    <message>
        <source>What the x axis of scalar charts measures when RunLens starts</source>
        <translation>RunLens 启动时标量图表 x 轴的度量</translation>
    </message>
    <message>
        <source>Sample &amp;Limits…</source>
        <translation>采样上限(&amp;L)…</translation>
    </message>
    <message>
        <source>How many values per tag the summary readers keep</source>
        <translation>摘要读取器为每个标签保留多少个值</translation>
    </message>
    <message>
        <source>Top down</source>
        <translation>自上而下</translation>
    </message>
    <message>
        <source>Left to right</source>
        <translation>从左到右</translation>
    </message>
    <message>
        <source>Direction of the data flow in the Graph panel</source>
        <translation>“计算图”面板中数据流的方向</translation>
    </message>
    <message>
        <source>Scalar &amp;smoothing:</source>
        <translation>标量平滑(&amp;S)：</translation>
    </message>
    <message>
        <source>Scalar &amp;x axis:</source>
        <translation>标量 x 轴(&amp;X)：</translation>
    </message>
    <message>
        <source>Summary samples:</source>
        <translation>摘要采样：</translation>
    </message>
    <message>
        <source>&amp;Graph direction:</source>
        <translation>计算图方向(&amp;G)：</translation>
    </message>
    <message>
        <source>Point (1234.5)</source>
        <translation>小数点（1234.5）</translation>
    </message>
    <message>
        <source>As the locale writes it (%1)</source>
        <translation>按区域设置的写法（%1）</translation>
    </message>
    <message>
        <source>How values are written in tooltips and tables</source>
        <translation>提示框和表格中数值的书写方式</translation>
    </message>
    <message>
        <source>Significant digits of values in tooltips and tables</source>
        <translation>提示框和表格中数值的有效数字位数</translation>
    </message>
    <message>
        <source>&amp;Decimal separator:</source>
        <translation>小数分隔符(&amp;D)：</translation>
    </message>
    <message>
        <source>Significant &amp;digits:</source>
        <translation>有效数字(&amp;D)：</translation>
    </message>
    <message>
        <source>Example:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>The Advisor reads rule threshold files (*.json) from this folder</source>
        <translation>诊断助手从此文件夹读取规则阈值文件（*.json）</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Choose another folder for rule files</source>
        <translation>为规则文件选择其他文件夹</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Show the folder in the file manager (it is created if missing)</source>
        <translation>在文件管理器中显示该文件夹（不存在时会自动创建）</translation>
    </message>
    <message>
        <source>De&amp;fault</source>
        <translation>默认(&amp;F)</translation>
    </message>
    <message>
        <source>Use %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <source>Rules folder:</source>
        <translation>规则文件夹：</translation>
    </message>
    <message>
        <source>Open the folders of the last session again, with their docks, zoom ranges, expanded graph groups and selected tensors</source>
        <translation>重新打开上次会话的文件夹，并恢复其面板、缩放范围、已展开的计算图分组和已选中的张量</translation>
    </message>
    <message>
        <source>Show the default of every preference</source>
        <translation>显示每个首选项的默认值</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>Panels</source>
        <translation>面板</translation>
    </message>
    <message>
        <source>Numbers</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>Advisor</source>
        <translation>诊断助手</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Rules Folder</source>
        <translation>规则文件夹</translation>
    </message>
    <message>
        <source>Cannot create %1. Choose a folder you can write to.</source>
        <translation>无法创建 %1。请选择一个您有写入权限的文件夹。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>scalars %1 · histograms %2 · images %3</source>
        <translation>标量 %1 · 直方图 %2 · 图像 %3</translation>
    </message>
    <message>
        <source>Values kept per tag; new limits apply when the run folder is read again</source>
        <translation>每个标签保留的值数；新上限在重新读取运行文件夹时生效</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Room for inflated .gz traces and the indexes that let an unchanged trace open without being read again; the least recently used are removed first</source>
        <translation>用于存放解压后的 .gz 跟踪文件，以及让未改动的跟踪无需重新读取即可打开的索引；空间不足时先删除最久未使用的条目</translation>
    </message>
    <message>
        <source>&amp;Clear Cache</source>
        <translation>清除缓存(&amp;C)</translation>
    </message>
    <message>
        <source>Remove everything in the trace cache now; traces are read in full the next time</source>
        <translation>立即删除跟踪缓存中的全部内容；下次打开跟踪时将完整读取</translation>
    </message>
    <message>
        <source>Size &amp;limit:</source>
        <translation>大小上限(&amp;L)：</translation>
    </message>
    <message>
        <source>In use:</source>
        <translation>已用：</translation>
    </message>
    <message>
        <source>Trace Cache</source>
        <translation>跟踪缓存</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <source>Some files in %1 could not be removed.</source>
        <translation>%1 中的部分文件无法删除。</translation>
    </message>
</context>
<context>
    <name>runlens::app::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Filter by command or key</source>
        <translation>按命令或按键筛选</translation>
    </message>
    <message>
        <source>Shows only the lines whose command, keys or group contain this text</source>
        <translation>仅显示命令、按键或分组包含此文本的行</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Scalars and Distributions</source>
        <translation>标量和分布</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Tensors and Images</source>
        <translation>张量和图像</translation>
    </message>
    <message>
        <source>Zoom in / out (hold to keep going)</source>
        <translation>放大 / 缩小（按住可持续）</translation>
    </message>
    <message>
        <source>Pan left / right (hold to keep going)</source>
        <translation>向左 / 向右平移（按住可持续）</translation>
    </message>
    <message>
        <source>Pan by a step</source>
        <translation>按一步平移</translation>
    </message>
    <message>
        <source>Left / Right</source>
        <translation>Left / Right</translation>
    </message>
    <message>
        <source>Fit the whole trace</source>
        <translation>适应整个性能数据</translation>
    </message>
    <message>
        <source>Mark the selected range</source>
        <translation>标记所选范围</translation>
    </message>
    <message>
        <source>Clear the selection and highlight</source>
        <translation>清除选择和高亮</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Undo the last zoom</source>
        <translation>撤销上一次缩放</translation>
    </message>
    <message>
        <source>Zoom at the cursor</source>
        <translation>以光标为中心缩放</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>滚轮</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Shift+Wheel, drag</source>
        <translation>Shift+滚轮、拖动</translation>
    </message>
    <message>
        <source>Select a time range</source>
        <translation>选择时间范围</translation>
    </message>
    <message>
        <source>Shift+drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <source>Expand or collapse the selected group</source>
        <translation>展开或折叠所选分组</translation>
    </message>
    <message>
        <source>Enter, double-click</source>
        <translation>Enter、双击</translation>
    </message>
    <message>
        <source>Collapse the selected node&apos;s parent</source>
        <translation>折叠所选节点的父节点</translation>
    </message>
    <message>
        <source>Backspace</source>
        <translation>Backspace</translation>
    </message>
    <message>
        <source>Fit the graph to the view</source>
        <translation>使计算图适应视图</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <source>Zoom in / out</source>
        <translation>放大 / 缩小</translation>
    </message>
    <message>
        <source>+ / −, Wheel</source>
        <translation>+ / −、滚轮</translation>
    </message>
    <message>
        <source>Clear the selection</source>
        <translation>清除选择</translation>
    </message>
    <message>
        <source>Zoom a chart (the plain wheel scrolls the page)</source>
        <translation>缩放图表（仅用滚轮会滚动页面）</translation>
    </message>
    <message>
        <source>Ctrl+Wheel</source>
        <translation>Ctrl+滚轮</translation>
    </message>
    <message>
        <source>Fit the chart to its data</source>
        <translation>使图表适应其数据</translation>
    </message>
    <message>
        <source>Double-click</source>
        <translation>双击</translation>
    </message>
    <message>
        <source>Fit every curve</source>
        <translation>适应所有曲线</translation>
    </message>
    <message>
        <source>Copy the selected values</source>
        <translation>复制所选的值</translation>
    </message>
    <message>
        <source>Zoom the heat map or image</source>
        <translation>缩放热力图或图像</translation>
    </message>
</context>
<context>
    <name>runlens::app::SummaryLimitsDialog</name>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Summary Sample Limits</source>
        <translation>摘要采样上限</translation>
    </message>
    <message>
        <source>Histograms kept per tag (0 keeps all)</source>
        <translation>每个标签保留的直方图数（0 表示全部保留）</translation>
    </message>
    <message>
        <source>Steps with images kept per tag (0 keeps all)</source>
        <translation>每个标签保留的含图像步数（0 表示全部保留）</translation>
    </message>
    <message>
        <source>Texts kept per tag (0 keeps all)</source>
        <translation>每个标签保留的文本数（0 表示全部保留）</translation>
    </message>
    <message>
        <source>PR curves kept per tag (0 keeps all)</source>
        <translation>每个标签保留的 PR 曲线数（0 表示全部保留）</translation>
    </message>
    <message>
        <source>Summary tensors kept per tag (0 keeps all)</source>
        <translation>每个标签保留的摘要张量数（0 表示全部保留）</translation>
    </message>
    <message>
        <source>&amp;Histograms per tag:</source>
        <translation>每个标签的直方图数(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Images per tag:</source>
        <translation>每个标签的图像数(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Texts per tag:</source>
        <translation>每个标签的文本数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;PR curves per tag:</source>
        <translation>每个标签的 PR 曲线数(&amp;P)：</translation>
    </message>
    <message>
        <source>T&amp;ensors per tag:</source>
        <translation>每个标签的张量数(&amp;E)：</translation>
    </message>
    <message>
        <source>Use the recommended limits</source>
        <translation>使用推荐的上限</translation>
    </message>
    <message>
        <source>Long runs write more values than are useful to keep in memory. Per tag, RunLens keeps at most this many values: always the latest, the others a uniform sample, as TensorBoard does. Scalars are kept whole unless you set a limit. Applies from the next reload.</source>
        <translation>长时间的运行写入的值多于值得保留在内存中的数量。RunLens 对每个标签最多保留这么多个值：始终保留最新的值，其余均匀采样，与 TensorBoard 的做法相同。除非设置了上限，标量会完整保留。从下次重新加载起生效。</translation>
    </message>
    <message>
        <source>Scalar points kept per tag and run (0 keeps all)</source>
        <translation>每个运行的每个标签保留的标量数据点数（0 表示全部保留）</translation>
    </message>
    <message>
        <source>&amp;Scalar points per tag:</source>
        <translation>每个标签的标量数据点数(&amp;S)：</translation>
    </message>
</context>
<context>
    <name>runlens::cli</name>
    <message>
        <source>runlens: a PATH is required</source>
        <translation>runlens：需要指定 PATH</translation>
    </message>
    <message>
        <source>runlens: %1 does not exist</source>
        <translation>runlens：%1 不存在</translation>
    </message>
    <message>
        <source>Lists what a run folder holds.</source>
        <translation>列出运行文件夹中的内容。</translation>
    </message>
    <message>
        <source>Print JSON (the stable contract) instead of text.</source>
        <translation>输出 JSON（稳定格式）而不是文本。</translation>
    </message>
    <message>
        <source>Run folder or file.</source>
        <translation>运行文件夹或文件。</translation>
    </message>
    <message>
        <source>Imports a run folder and reports what each artifact imported to.</source>
        <translation>导入运行文件夹，并报告每个产物导入的结果。</translation>
    </message>
    <message>
        <source>Writes the demo run folder.</source>
        <translation>写入演示运行文件夹。</translation>
    </message>
    <message>
        <source>Folder to write (created if needed).</source>
        <translation>要写入的文件夹（必要时会创建）。</translation>
    </message>
    <message>
        <source>runlens demo: a DIR is required</source>
        <translation>runlens demo：需要指定 DIR</translation>
    </message>
    <message>
        <source>runlens demo: %1</source>
        <translation>runlens demo：%1</translation>
    </message>
    <message>
        <source>Demo run written to %1</source>
        <translation>演示运行已写入 %1</translation>
    </message>
    <message>
        <source>Exports a chart without a display.</source>
        <translation>在没有显示器的情况下导出图表。</translation>
    </message>
    <message>
        <source>Output file; the format follows the extension (png, svg, pdf, csv).</source>
        <translation>输出文件；格式由扩展名决定（png、svg、pdf、csv）。</translation>
    </message>
    <message>
        <source>Smoothing weight for scalars, 0 to 0.999 (default 0.6).</source>
        <translation>标量的平滑权重，0 到 0.999（默认 0.6）。</translation>
    </message>
    <message>
        <source>runlens export: --chart KIND:NAME and --out FILE are required</source>
        <translation>runlens export：需要 --chart KIND:NAME 和 --out FILE</translation>
    </message>
    <message>
        <source>runlens export: no scalar tag &apos;%1&apos; in %2</source>
        <translation>runlens export：%2 中没有标量标签“%1”</translation>
    </message>
    <message>
        <source>available tags: %1</source>
        <translation>可用的标签：%1</translation>
    </message>
    <message>
        <source>runlens export: --smoothing takes a number from 0 to 0.999</source>
        <translation>runlens export：--smoothing 取 0 到 0.999 之间的数</translation>
    </message>
    <message>
        <source>runlens export: %1</source>
        <translation>runlens export：%1</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>runlens export: no graph &apos;%1&apos; in %2</source>
        <translation>runlens export：%2 中没有计算图“%1”</translation>
    </message>
    <message>
        <source>available graphs: %1</source>
        <translation>可用的计算图：%1</translation>
    </message>
    <message>
        <source>runlens export: no histogram tag &apos;%1&apos; in %2</source>
        <translation>runlens export：%2 中没有直方图标签“%1”</translation>
    </message>
    <message>
        <source>The chart, as KIND:NAME (for example scalars:train/loss or distributions:conv1.weight).</source>
        <translation>图表，格式为 KIND:NAME（例如 scalars:train/loss 或 distributions:conv1.weight）。</translation>
    </message>
    <message>
        <source>For distributions: the run (default: the first run with the tag).</source>
        <translation>用于 distributions：要显示的运行（默认：第一个含该标签的运行）。</translation>
    </message>
    <message>
        <source>runlens export: unknown chart kind &apos;%1&apos; (known: scalars, distributions, graph)</source>
        <translation>runlens export：未知的图表类型“%1”（已知：scalars、distributions、graph）</translation>
    </message>
    <message>
        <source>Runs the Advisor&apos;s expert rules over a run folder and reports what they find, with evidence.
Exit code: 0 when no finding reaches the --fail-on severity (always 0 without it), 1 when one does,
2 for a usage error, a missing PATH or an unreadable rule file.</source>
        <translation>在运行文件夹上运行诊断助手的专家规则，并报告发现的问题及其证据。
退出码：没有发现达到 --fail-on 严重程度时为 0（未指定该选项时始终为 0），有发现达到时为 1，
用法错误、PATH 不存在或规则文件无法读取时为 2。</translation>
    </message>
    <message>
        <source>Output format: text, json, markdown or html.</source>
        <translation>输出格式：text、json、markdown 或 html。</translation>
    </message>
    <message>
        <source>A rule file layered over the built-in rules and those of the settings folder (thresholds, enabled, severity, new rules). May be given several times.</source>
        <translation>叠加在内置规则和设置文件夹中规则之上的规则文件（阈值、启用状态、严重程度、新规则）。可多次指定。</translation>
    </message>
    <message>
        <source>Exit with 1 when a finding of this severity or worse exists: warning or error.</source>
        <translation>存在此严重程度或更严重的发现时以 1 退出：warning 或 error。</translation>
    </message>
    <message>
        <source>runlens advise: --fail-on takes warning or error, not &apos;%1&apos;</source>
        <translation>runlens advise：--fail-on 只接受 warning 或 error，而不是 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>runlens advise: --format takes text, json, markdown or html, not &apos;%1&apos;</source>
        <translation>runlens advise：--format 只接受 text、json、markdown 或 html，而不是 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>runlens advise: a PATH is required</source>
        <translation>runlens advise：需要指定 PATH</translation>
    </message>
    <message>
        <source>runlens advise: %1 does not exist</source>
        <translation>runlens advise：%1 不存在</translation>
    </message>
    <message numerus="yes">
        <source>runlens advise: %n more problem(s) while reading</source>
        <translation>
            <numerusform>runlens advise：读取时还有 %n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>Bench:  %1</source>
        <translation>标杆：%1</translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation>待测：%1</translation>
    </message>
    <message>
        <source>Mode:   %1</source>
        <translation>模式：%1</translation>
    </message>
    <message>
        <source>First divergence: %1 (%2)</source>
        <translation>首个分歧点：%1（%2）</translation>
    </message>
    <message>
        <source>No divergence found.</source>
        <translation>未发现分歧。</translation>
    </message>
    <message>
        <source>%1 matched: %2 pass, %3 warning, %4 error; unmatched: %5 in the bench, %6 in the target.</source>
        <translation>已匹配 %1 项：%2 项通过，%3 项警告，%4 项错误；未匹配：标杆侧 %5 项，待测侧 %6 项。</translation>
    </message>
    <message>
        <source>(introduced)</source>
        <translation>（误差引入处）</translation>
    </message>
    <message>
        <source>Compares two runs&apos; dumps tensor by tensor and finds the op where they part.
BENCH is the reference, TARGET the run under test: msprobe dump folders, run folders with dumps,
or two checkpoint files (.pt, .npz, .safetensors).
Exit code: 0 when no row reaches the --fail-on verdict (always 0 without it), 1 when one does,
2 for a usage error, a missing or unreadable input or mapping file.</source>
        <translation>逐个张量比对两次运行的转储，并找出数值开始分歧的算子。
BENCH 为标杆，TARGET 为待测运行：msprobe 转储文件夹、含转储的运行文件夹，
或两个检查点文件（.pt、.npz、.safetensors）。
退出码：没有行达到 --fail-on 结论时为 0（未指定该选项时始终为 0），有行达到时为 1，
用法错误、输入或映射文件不存在或无法读取时为 2。</translation>
    </message>
    <message>
        <source>Print one CSV line per row.</source>
        <translation>每行输出一条 CSV 记录。</translation>
    </message>
    <message>
        <source>Print a Markdown report.</source>
        <translation>输出 Markdown 报告。</translation>
    </message>
    <message>
        <source>A mapping file (JSON or YAML) naming target rows, APIs, module paths and classes as the bench spells them.</source>
        <translation>映射文件（JSON 或 YAML），按标杆侧的写法给出待测侧的行、API、模块路径和类名。</translation>
    </message>
    <message>
        <source>Exit with 1 when a row has this verdict or worse: warning or error.</source>
        <translation>有行达到此结论或更严重时以 1 退出：warning 或 error。</translation>
    </message>
    <message>
        <source>The reference dump.</source>
        <translation>标杆转储。</translation>
    </message>
    <message>
        <source>The dump under test.</source>
        <translation>待测转储。</translation>
    </message>
    <message>
        <source>runlens compare: --fail-on takes warning or error, not &apos;%1&apos;</source>
        <translation>runlens compare：--fail-on 只接受 warning 或 error，而不是 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>runlens compare: BENCH and TARGET are required</source>
        <translation>runlens compare：需要指定 BENCH 和 TARGET</translation>
    </message>
    <message>
        <source>runlens compare: %1 does not exist</source>
        <translation>runlens compare：%1 不存在</translation>
    </message>
    <message>
        <source>runlens compare: cannot read the mapping %1</source>
        <translation>runlens compare：无法读取映射文件 %1</translation>
    </message>
    <message>
        <source>runlens compare: %1: %2</source>
        <translation>runlens compare：%1：%2</translation>
    </message>
    <message>
        <source>runlens compare: %1</source>
        <translation>runlens compare：%1</translation>
    </message>
    <message>
        <source>Runs COMMAND and samples the machine under it until it exits: CPU, the command&apos;s processes, memory,
disk, network, InfiniBand, NUMA and (with NVIDIA&apos;s driver) GPUs. The samples are scalars
system/&lt;metric&gt;_&lt;unit&gt; in a TensorBoard event file under OUT/system/ (OUT defaults to
./runlens-system/&lt;host&gt;); RunLens and TensorBoard read it. Standard input and output, the environment
and signals reach COMMAND; Ctrl+C stops both. The exit code is COMMAND&apos;s.</source>
        <translation>运行 COMMAND 并在其退出前对其下的机器采样：CPU、命令的进程、内存、
磁盘、网络、InfiniBand、NUMA 以及（有 NVIDIA 驱动时）GPU。样本是 TensorBoard 事件文件中的标量
system/&lt;metric&gt;_&lt;unit&gt;，位于 OUT/system/ 下（OUT 默认为
./runlens-system/&lt;host&gt;）；RunLens 和 TensorBoard 都能读取。标准输入输出、环境变量
和信号都会传给 COMMAND；Ctrl+C 会同时停止两者。退出码为 COMMAND 的退出码。</translation>
    </message>
    <message>
        <source>Time between samples: 1s (default), 500ms, 2s…</source>
        <translation>采样间隔：1s（默认）、500ms、2s…</translation>
    </message>
    <message>
        <source>Folder to write OUT/system/ into.</source>
        <translation>写入 OUT/system/ 的文件夹。</translation>
    </message>
    <message>
        <source>Rank of this process in a distributed job: the samples go to OUT/system/rank_N/.</source>
        <translation>本进程在分布式作业中的 rank：样本写入 OUT/system/rank_N/。</translation>
    </message>
    <message>
        <source>The command to run, after --.</source>
        <translation>要运行的命令，写在 -- 之后。</translation>
    </message>
    <message>
        <source>runlens record: no command to run; usage: runlens record [--interval 1s] [--out OUT] -- COMMAND [ARGS…]</source>
        <translation>runlens record：没有要运行的命令；用法：runlens record [--interval 1s] [--out OUT] -- COMMAND [ARGS…]</translation>
    </message>
    <message>
        <source>runlens record: --interval takes a duration from 50ms to 1h, not &apos;%1&apos;</source>
        <translation>runlens record：--interval 接受 50ms 到 1h 之间的时长，而不是 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>runlens record: --rank takes a number from 0, not &apos;%1&apos;</source>
        <translation>runlens record：--rank 接受从 0 开始的数字，而不是 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>runlens record: cannot create the folder %1</source>
        <translation>runlens record：无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>runlens record: cannot write %1: %2</source>
        <translation>runlens record：无法写入 %1：%2</translation>
    </message>
    <message>
        <source>runlens record: cannot start %1: %2</source>
        <translation>runlens record：无法启动 %1：%2</translation>
    </message>
    <message>
        <source>runlens record: cannot write %1: %2; the command goes on without recording</source>
        <translation>runlens record：无法写入 %1：%2；命令继续运行，但不再记录</translation>
    </message>
    <message>
        <source>runlens record: %1 samples of %2 metrics in %3</source>
        <translation>runlens record：%1 个样本，每个 %2 项指标，写入 %3</translation>
    </message>
    <message>
        <source>Findings:</source>
        <translation>发现：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>No findings.</source>
        <translation>没有发现。</translation>
    </message>
    <message>
        <source>Reads every rank&apos;s trace of the job at PATH once, one rank per worker, and writes one rank digest per
rank (rank-N.rldigest) into DIR. A folder of digests opens in RunLens as the job&apos;s cluster.
Exit code: 0 when every rank was digested, 1 when a rank failed, 2 for a usage error.</source>
        <translation>将 PATH 处作业每张卡的跟踪各读取一次（每个工作线程一张卡），并为每张卡向 DIR 写入一个卡摘要
（rank-N.rldigest）。摘要文件夹可在 RunLens 中作为该作业的集群打开。
退出码：所有卡都生成摘要时为 0，有卡失败时为 1，用法错误时为 2。</translation>
    </message>
    <message>
        <source>Folder the digests are written to (created).</source>
        <translation>写入摘要的文件夹（不存在时创建）。</translation>
    </message>
    <message>
        <source>Only these ranks: N or A-B (inclusive).</source>
        <translation>只处理这些卡：N 或 A-B（含两端）。</translation>
    </message>
    <message>
        <source>Ranks read at once (default: the number of cores). Each holds one rank&apos;s trace in memory.</source>
        <translation>同时读取的卡数（默认：CPU 核数）。每个在内存中保存一张卡的跟踪。</translation>
    </message>
    <message>
        <source>The job&apos;s folder or one trace.</source>
        <translation>作业的文件夹或一个跟踪文件。</translation>
    </message>
    <message>
        <source>runlens digest: PATH and --out DIR are required</source>
        <translation>runlens digest：需要 PATH 和 --out DIR</translation>
    </message>
    <message>
        <source>runlens digest: %1 does not exist</source>
        <translation>runlens digest：%1 不存在</translation>
    </message>
    <message>
        <source>runlens digest: --ranks takes N or A-B, not &apos;%1&apos;</source>
        <translation>runlens digest：--ranks 接受 N 或 A-B，而不是“%1”</translation>
    </message>
    <message>
        <source>runlens digest: --jobs takes a positive number, not &apos;%1&apos;</source>
        <translation>runlens digest：--jobs 接受正整数，而不是“%1”</translation>
    </message>
    <message numerus="yes">
        <source>runlens digest: %n trace(s) without a rank (in the file or its name) left out</source>
        <translation>
            <numerusform>runlens digest：%n 个跟踪（文件内容或文件名中）没有卡号，已略过</numerusform>
        </translation>
    </message>
    <message>
        <source>runlens digest: no trace with a rank found in %1</source>
        <translation>runlens digest：在 %1 中没有找到带卡号的跟踪</translation>
    </message>
    <message>
        <source>runlens digest: cannot create %1</source>
        <translation>runlens digest：无法创建 %1</translation>
    </message>
    <message>
        <source>[%1/%2] rank %3: %4</source>
        <translation>[%1/%2] 卡 %3：%4</translation>
    </message>
    <message>
        <source>[%1/%2] rank %3 failed: %4</source>
        <translation>[%1/%2] 卡 %3 失败：%4</translation>
    </message>
    <message>
        <source>runlens digest: %1 of %2 rank(s) failed</source>
        <translation>runlens digest：%2 张卡中有 %1 张失败</translation>
    </message>
    <message numerus="yes">
        <source>runlens digest: %n rank digest(s) written to %1</source>
        <translation>
            <numerusform>runlens digest：已将 %n 个卡摘要写入 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::cluster</name>
    <message>
        <source>Device %1</source>
        <translation>设备 %1</translation>
    </message>
    <message>
        <source>%1: not a rank digest (the body does not say &quot;%2&quot;)</source>
        <translation>%1：不是卡摘要（正文没有声明“%2”）</translation>
    </message>
    <message>
        <source>%1: the rank digest has no valid rank number</source>
        <translation>%1：卡摘要中没有有效的卡号</translation>
    </message>
    <message numerus="yes">
        <source>%1: the rank digest is truncated (%n byte(s), the header alone is 24)</source>
        <translation>
            <numerusform>%1：卡摘要被截断（%n 字节，仅文件头就有 24 字节）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: not a rank digest (no RLDIGEST header)</source>
        <translation>%1：不是卡摘要（没有 RLDIGEST 文件头）</translation>
    </message>
    <message>
        <source>%1: the rank digest was written by a newer RunLens (format version %2; this one reads up to %3). Update RunLens or digest the rank again.</source>
        <translation>%1：该卡摘要由更新版本的 RunLens 写入（格式版本 %2；当前版本最多读取 %3）。请升级 RunLens 或重新生成该卡的摘要。</translation>
    </message>
    <message>
        <source>%1: the rank digest&apos;s header is damaged (version %2, flags %3)</source>
        <translation>%1：卡摘要的文件头已损坏（版本 %2，标志 %3）</translation>
    </message>
    <message>
        <source>%1: the rank digest claims a body of %2 bytes, beyond what a rank digest holds</source>
        <translation>%1：卡摘要声称正文有 %2 字节，超出卡摘要可能的大小</translation>
    </message>
    <message>
        <source>%1: the rank digest could not be inflated</source>
        <translation>%1：无法解压卡摘要</translation>
    </message>
    <message>
        <source>%1: the rank digest is truncated or damaged (its body is %2 bytes, the header says %3)</source>
        <translation>%1：卡摘要被截断或已损坏（正文为 %2 字节，文件头声明 %3 字节）</translation>
    </message>
    <message>
        <source>%1: the rank digest&apos;s body is damaged (zlib: %2)</source>
        <translation>%1：卡摘要的正文已损坏（zlib：%2）</translation>
    </message>
    <message>
        <source>%1: the rank digest&apos;s body is not valid JSON (%2)</source>
        <translation>%1：卡摘要的正文不是有效的 JSON（%2）</translation>
    </message>
    <message>
        <source>%1: cannot write the rank digest (%2)</source>
        <translation>%1：无法写入卡摘要（%2）</translation>
    </message>
    <message>
        <source>%1: cannot open the rank digest (%2)</source>
        <translation>%1：无法打开卡摘要（%2）</translation>
    </message>
    <message>
        <source>%1: %2 bytes is too big for a rank digest</source>
        <translation>%1：%2 字节对卡摘要而言过大</translation>
    </message>
    <message>
        <source>%1: no such trace file</source>
        <translation>%1：没有此跟踪文件</translation>
    </message>
    <message>
        <source>%1: canceled</source>
        <translation>%1：已取消</translation>
    </message>
    <message>
        <source>%1: the trace holds no events</source>
        <translation>%1：跟踪中没有事件</translation>
    </message>
    <message>
        <source>%1: a second digest of rank %2 (the first one read is kept)</source>
        <translation>%1：卡 %2 的第二个摘要（保留先读取的那个）</translation>
    </message>
    <message>
        <source>%1: the rank digest&apos;s body is damaged (%2)</source>
        <translation>%1：rank 摘要的正文已损坏（%2）</translation>
    </message>
    <message>
        <source>its string table runs past the end</source>
        <translation>其字符串表超出了文件末尾</translation>
    </message>
    <message>
        <source>a table runs past the end or names a string that is not there</source>
        <translation>某个表超出了文件末尾，或引用了不存在的字符串</translation>
    </message>
</context>
<context>
    <name>runlens::distributions</name>
    <message>
        <source> … (%1 steps)</source>
        <translation> …（共 %1 步）</translation>
    </message>
    <message>
        <source>%1 at step %2</source>
        <translation>%1 出现在第 %2 步</translation>
    </message>
    <message>
        <source>%1 at steps %2</source>
        <translation>%1 出现在以下步：%2</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>第 &lt;b&gt;%1&lt;/b&gt; 步</translation>
    </message>
    <message>
        <source>count %1</source>
        <translation>计数 %1</translation>
    </message>
    <message>
        <source>min %1</source>
        <translation>最小值 %1</translation>
    </message>
    <message>
        <source>max %1</source>
        <translation>最大值 %1</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>均值 %1</translation>
    </message>
    <message>
        <source>std %1</source>
        <translation>标准差 %1</translation>
    </message>
    <message>
        <source>NaN %1</source>
        <translation>NaN %1</translation>
    </message>
    <message>
        <source>+Inf %1</source>
        <translation>+Inf %1</translation>
    </message>
    <message>
        <source>−Inf %1</source>
        <translation>−Inf %1</translation>
    </message>
    <message>
        <source>median &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>中位数 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>bucket</source>
        <translation>桶</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
</context>
<context>
    <name>runlens::embeddings::ProjectorReader</name>
    <message>
        <source>%1 is not a size: %2</source>
        <translation>%1 不是有效的尺寸：%2</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>cannot open: %1 (named by %2)</source>
        <translation>无法打开：%1（由 %2 指定）</translation>
    </message>
    <message>
        <source>%1 bytes is more than the %2 bytes read for such a file</source>
        <translation>%1 字节超过了此类文件可读取的 %2 字节</translation>
    </message>
    <message>
        <source>unbalanced &apos;%1&apos;; the rest of the file is not read</source>
        <translation>&apos;%1&apos; 不配对；文件其余部分未读取</translation>
    </message>
    <message>
        <source>expected a field name; the rest of the file is not read</source>
        <translation>此处应为字段名；文件其余部分未读取</translation>
    </message>
    <message>
        <source>nested deeper than %1 levels; the rest of the file is not read</source>
        <translation>嵌套超过 %1 层；文件其余部分未读取</translation>
    </message>
    <message>
        <source>unterminated list; the rest of the file is not read</source>
        <translation>列表未结束；文件其余部分未读取</translation>
    </message>
    <message>
        <source>no value for field %1; the rest of the file is not read</source>
        <translation>字段 %1 没有值；文件其余部分未读取</translation>
    </message>
    <message>
        <source>the file ends inside &apos;%1 {&apos;</source>
        <translation>文件在 &apos;%1 {&apos; 内部结束</translation>
    </message>
    <message>
        <source>%1 dimensions; only the first %2 are read</source>
        <translation>共 %1 维；只读取前 %2 维</translation>
    </message>
    <message>
        <source>%1 values where the lines before have %2; the table ends before this line</source>
        <translation>此行有 %1 个值，而之前的行有 %2 个；表格在此行之前结束</translation>
    </message>
    <message>
        <source>more points than the %1 read; the rest are left out</source>
        <translation>点数超过已读取的 %1 个；其余的点被略去</translation>
    </message>
    <message>
        <source>value %1 of the line is not a finite number (%2); it reads as 0</source>
        <translation>该行第 %1 个值不是有限数（%2）；按 0 读取</translation>
    </message>
    <message>
        <source>%1 values in all were not finite numbers and read as 0</source>
        <translation>共有 %1 个值不是有限数，已按 0 读取</translation>
    </message>
    <message>
        <source>%1 metadata columns; only the first %2 are read</source>
        <translation>共 %1 个元数据列；只读取前 %2 列</translation>
    </message>
    <message>
        <source>label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>%1 metadata rows for %2 points; %3</source>
        <translation>%2 个点有 %1 行元数据；%3</translation>
    </message>
    <message>
        <source>the extra rows are left out</source>
        <translation>多出的行被略去</translation>
    </message>
    <message>
        <source>the missing rows read as empty</source>
        <translation>缺少的行按空值读取</translation>
    </message>
    <message>
        <source>%1 cells where the header names %2 columns</source>
        <translation>此行有 %1 个单元格，而表头有 %2 列</translation>
    </message>
    <message>
        <source>%1 embeddings; only the first %2 are read</source>
        <translation>共 %1 个嵌入；只读取前 %2 个</translation>
    </message>
    <message>
        <source>no points</source>
        <translation>没有点</translation>
    </message>
    <message>
        <source>the sprite image named by %1 does not exist</source>
        <translation>%1 指定的精灵图不存在</translation>
    </message>
    <message>
        <source>%1 bytes is more than a checkpoint state file holds</source>
        <translation>%1 字节超出了检查点状态文件应有的大小</translation>
    </message>
    <message>
        <source>no model_checkpoint_path in the file</source>
        <translation>文件中没有 model_checkpoint_path</translation>
    </message>
    <message>
        <source>the file names the checkpoint %1, but %2 does not exist</source>
        <translation>文件指向检查点 %1，但 %2 不存在</translation>
    </message>
    <message>
        <source>model_checkpoint_path names %1, but %2 does not exist</source>
        <translation>model_checkpoint_path 指向 %1，但 %2 不存在</translation>
    </message>
    <message>
        <source>no checkpoint to read tensor_name embeddings from: the config has no model_checkpoint_path and there is no %1</source>
        <translation>没有可读取 tensor_name 嵌入的检查点：配置中没有 model_checkpoint_path，且不存在 %1</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>%1 bytes is more than the %2 bytes read for a checkpoint index</source>
        <translation>%1 字节超出了检查点索引读取上限 %2 字节</translation>
    </message>
    <message>
        <source>the checkpoint index is damaged (%1); %2 tensors were read before</source>
        <translation>检查点索引已损坏（%1）；此前已读取 %2 个张量</translation>
    </message>
    <message>
        <source>tensor %1 is not in the checkpoint (neither as named nor with %2); it holds %3 tensors, among them %4</source>
        <translation>检查点中没有张量 %1（按原名和加上 %2 均未找到）；检查点共有 %3 个张量，其中包括 %4</translation>
    </message>
    <message>
        <source>%1 is a partitioned variable saved in slices, which is not read</source>
        <translation>%1 是按切片保存的分区变量，不予读取</translation>
    </message>
    <message>
        <source>%1 is of type %2; only float, integer and bool tensors can be shown as points</source>
        <translation>%1 的类型为 %2；只有浮点、整数和布尔张量可以显示为点</translation>
    </message>
    <message>
        <source>%1 has the shape %2; only 2-D tensors (points x dimensions) are embeddings</source>
        <translation>%1 的形状为 %2；只有二维张量（点数 x 维数）才是嵌入</translation>
    </message>
    <message>
        <source>the index gives %1 %2 bytes, but its shape and type need %3</source>
        <translation>索引给出 %1 的大小为 %2 字节，但其形状和类型需要 %3</translation>
    </message>
    <message>
        <source>more than any file holds</source>
        <translation>超出任何文件可容纳的大小</translation>
    </message>
    <message>
        <source>%1 is %2 points x %3 dimensions, more than the projector reads (%4 points, %5 dimensions, %6 values)</source>
        <translation>%1 为 %2 个点 x %3 维，超出投影器的读取上限（%4 个点、%5 维、%6 个值）</translation>
    </message>
    <message>
        <source>%1 is in shard %2 of a checkpoint of %3 shards</source>
        <translation>%1 位于分片 %2，而检查点只有 %3 个分片</translation>
    </message>
    <message>
        <source>cannot open: %1 (it holds %2)</source>
        <translation>无法打开：%1（其中保存 %2）</translation>
    </message>
    <message>
        <source>the file is %1 bytes, but %2 lies at bytes %3 to %4: the file is truncated or not this checkpoint&apos;s</source>
        <translation>文件大小为 %1 字节，但 %2 位于第 %3 到 %4 字节：文件已截断或不属于此检查点</translation>
    </message>
    <message>
        <source>cannot read the %1 bytes of %2: %3</source>
        <translation>无法读取 %2 的 %1 字节：%3</translation>
    </message>
    <message>
        <source>the bytes of %1 do not match the CRC-32C the index stores for them; the values are shown as read but may be damaged</source>
        <translation>%1 的字节与索引中保存的 CRC-32C 不符；按读取的值显示，但数据可能已损坏</translation>
    </message>
    <message>
        <source>the bytes of %1 are not whole %2 values</source>
        <translation>%1 的字节数不是整数个 %2 值</translation>
    </message>
    <message>
        <source>%1 values of %2 are not finite floats and read as 0</source>
        <translation>%2 中有 %1 个值不是有限浮点数，按 0 读取</translation>
    </message>
    <message>
        <source>embedding %1 has neither tensor_path nor tensor_name</source>
        <translation>嵌入 %1 既没有 tensor_path 也没有 tensor_name</translation>
    </message>
    <message>
        <source>embedding %1 has no tensor_path and no checkpoint was found to read it from</source>
        <translation>嵌入 %1 没有 tensor_path，且找不到可从中读取它的检查点</translation>
    </message>
</context>
<context>
    <name>runlens::graph</name>
    <message numerus="yes">
        <source>%n input(s) name no node, parameter or constant of the graph.</source>
        <translation>
            <numerusform>%n 个输入未指向图中的任何节点、参数或常量。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not a readable MindSpore graph: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读取的 MindSpore 计算图：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>The graph is damaged or cut off after byte %1; the %2 nodes before it were read.</source>
        <translation>计算图在第 %1 字节之后损坏或被截断；已读取之前的 %2 个节点。</translation>
    </message>
    <message>
        <source>The file is empty.</source>
        <translation>文件为空。</translation>
    </message>
    <message>
        <source>Not a readable MindSpore model: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读取的 MindSpore 模型：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>Not a Graphviz file: it contains binary data.</source>
        <translation>不是 Graphviz 文件：其中包含二进制数据。</translation>
    </message>
    <message>
        <source>no graph found</source>
        <translation>未找到计算图</translation>
    </message>
    <message>
        <source>Not a readable Graphviz file: %1</source>
        <translation>不是可读取的 Graphviz 文件：%1</translation>
    </message>
    <message>
        <source>This kind of graph file is not read by this version.</source>
        <translation>此版本不读取这种计算图文件。</translation>
    </message>
    <message>
        <source>Cannot open the file: %1</source>
        <translation>无法打开文件：%1</translation>
    </message>
    <message>
        <source>The file is %1 MiB, more than the %2 MiB a graph of this kind can hold.</source>
        <translation>文件大小为 %1 MiB，超过此类计算图可容纳的 %2 MiB。</translation>
    </message>
    <message>
        <source>Only %1 of %2 bytes could be read: %3</source>
        <translation>只读取了 %2 字节中的 %1 字节：%3</translation>
    </message>
    <message>
        <source>No MindSpore IR nodes (`%N(name) = Op(...)`) were found.</source>
        <translation>未找到 MindSpore IR 节点（`%N(name) = Op(...)`）。</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) were not understood and skipped (the first is line %1).</source>
        <translation>
            <numerusform>有 %n 行无法识别，已跳过（第一处在第 %1 行）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n argument(s) refer to nodes or parameters that are not in the file (an excerpt?).</source>
        <translation>
            <numerusform>有 %n 个参数引用了文件中不存在的节点或参数（是否为节选？）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) name subgraphs that are not in the file.</source>
        <translation>
            <numerusform>有 %n 个调用指向文件中不存在的子图。</numerusform>
        </translation>
    </message>
    <message>
        <source>The model is larger than 2 GB, the limit of an ONNX file; store its weights as external data.</source>
        <translation>模型大于 ONNX 文件 2 GB 的上限；请将其权重存储为外部数据。</translation>
    </message>
    <message>
        <source>The model is damaged or cut off after byte %1; the %2 nodes before it were read.</source>
        <translation>模型在第 %1 字节之后损坏或被截断；已读取之前的 %2 个节点。</translation>
    </message>
    <message>
        <source>Not a readable ONNX model: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读取的 ONNX 模型：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>The ONNX model holds no graph.</source>
        <translation>该 ONNX 模型不包含计算图。</translation>
    </message>
    <message numerus="yes">
        <source>%n node input(s) name values no node, initializer or graph input produces.</source>
        <translation>
            <numerusform>有 %n 个节点输入引用了没有任何节点、初始化器或图输入产生的值。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node input(s) name nodes that are not in the graph.</source>
        <translation>
            <numerusform>有 %n 个节点输入引用了图中不存在的节点。</numerusform>
        </translation>
    </message>
    <message>
        <source>The graph is empty.</source>
        <translation>计算图为空。</translation>
    </message>
    <message>
        <source>Not a readable TensorFlow GraphDef: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读取的 TensorFlow GraphDef：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>The GraphDef is damaged or cut off after byte %1; the %2 nodes before it were read.</source>
        <translation>GraphDef 在第 %1 字节之后损坏或被截断；已读取之前的 %2 个节点。</translation>
    </message>
    <message>
        <source>Not valid GraphDef text at line %1, column %2: %3</source>
        <translation>第 %1 行第 %2 列不是有效的 GraphDef 文本：%3</translation>
    </message>
    <message>
        <source>Cannot open the event file: %1</source>
        <translation>无法打开事件文件：%1</translation>
    </message>
    <message>
        <source>The event file holds no graph (no graph_def record).</source>
        <translation>该事件文件不包含计算图（没有 graph_def 记录）。</translation>
    </message>
    <message>
        <source>No TorchScript or torch.fx statements were found.</source>
        <translation>未找到 TorchScript 或 torch.fx 语句。</translation>
    </message>
    <message numerus="yes">
        <source>%n argument(s) name values that no statement defines.</source>
        <translation>
            <numerusform>有 %n 个参数引用了没有任何语句定义的值。</numerusform>
        </translation>
    </message>
    <message>
        <source>Subgraphs are nested deeper than %1 levels (or clusters deeper than %2); the deeper ones do not become groups.</source>
        <translation>子图嵌套超过 %1 层（或簇超过 %2 层）；更深的部分不再成为分组。</translation>
    </message>
    <message numerus="yes">
        <source>%n node scope(s) nested deeper than %1 levels or longer than %2 bytes were cut to that size (the first is node &quot;%3&quot;).</source>
        <translation>
            <numerusform>%n 个节点作用域嵌套超过 %1 层或长度超过 %2 字节，已截断到该大小（第一个是节点“%3”）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading stopped: the graph needs more memory than is available.</source>
        <translation>读取已停止：该图所需内存超过可用内存。</translation>
    </message>
    <message>
        <source>Reading stopped by an internal error: %1</source>
        <translation>读取因内部错误而停止：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n initializer(s) give an external data offset or length that is not a byte count; their values cannot be shown (the first is &quot;%1&quot;).</source>
        <translation>
            <numerusform>%n 个初始值设定项给出的外部数据偏移或长度不是字节数；无法显示其值（第一个是“%1”）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node stack trace(s) hold more than %1 frames; the innermost %1 are kept (the first is node &quot;%2&quot;).</source>
        <translation>
            <numerusform>%n 个节点的调用栈超过 %1 帧；保留最内层的 %1 帧（第一个是节点“%2”）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n input(s) name an output slot that is negative, not a number or beyond %1, which no operation has; they were left unconnected (the first is %2).</source>
        <translation>
            <numerusform>%n 个输入引用的输出槽为负数、不是数字或超过 %1，没有任何算子具有这样的输出槽；这些输入未连接（第一个是 %2）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not a valid JSON document (%1): a parallel strategy file is the JSON MindSpore writes with the profiler or strategy_ckpt_config.</source>
        <translation>不是有效的 JSON 文档（%1）：并行策略文件是 MindSpore 通过 profiler 或 strategy_ckpt_config 写出的 JSON。</translation>
    </message>
    <message>
        <source>The file holds no JSON object: a parallel strategy file starts with { &quot;config&quot; … } or { &quot;current_stage&quot; … }.</source>
        <translation>文件中没有 JSON 对象：并行策略文件以 { &quot;config&quot; … } 或 { &quot;current_stage&quot; … } 开头。</translation>
    </message>
    <message>
        <source>Neither a profiler parallel strategy (no &quot;graph&quot; key) nor a strategy checkpoint (no &quot;parallel_strategy_item&quot; key).</source>
        <translation>既不是 profiler 并行策略（没有 &quot;graph&quot; 键），也不是策略检查点（没有 &quot;parallel_strategy_item&quot; 键）。</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(ies) without a name or of the wrong type were skipped.</source>
        <translation>
            <numerusform>跳过了 %n 个没有名称或类型错误的条目。</numerusform>
        </translation>
    </message>
    <message>
        <source>The strategy file lists no operators.</source>
        <translation>策略文件中没有算子。</translation>
    </message>
    <message>
        <source>No &quot;config&quot;: the rank and pipeline stage are unknown.</source>
        <translation>没有 &quot;config&quot;：rank 和流水线阶段未知。</translation>
    </message>
    <message>
        <source>The graph has no &quot;node&quot; list.</source>
        <translation>图中没有 &quot;node&quot; 列表。</translation>
    </message>
    <message>
        <source>The program is larger than 2 GB, the limit of a protobuf message; it is not a Paddle model.</source>
        <translation>程序大于 2 GB（protobuf 消息的上限），不是 Paddle 模型。</translation>
    </message>
    <message>
        <source>The program is damaged or cut off after byte %1; the %2 ops before it were read.</source>
        <translation>程序在第 %1 字节之后损坏或被截断；已读取其前的 %2 个算子。</translation>
    </message>
    <message>
        <source>Not a readable Paddle program: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读的 Paddle 程序：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>The Paddle program holds no block.</source>
        <translation>该 Paddle 程序不含任何块。</translation>
    </message>
    <message numerus="yes">
        <source>%n sub-block reference(s) name block 0, a block that does not exist or one already shown under another op; they are left out (the first is on op &quot;%1&quot;).</source>
        <translation>
            <numerusform>%n 个子块引用指向块 0、不存在的块或已显示在其他算子下的块；这些引用被略去（第一个位于算子“%1”）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Sub-blocks nest deeper than %1 levels; the deeper ones are left out (below op &quot;%2&quot;).</source>
        <translation>子块嵌套超过 %1 层；更深的子块被略去（位于算子“%2”之下）。</translation>
    </message>
    <message numerus="yes">
        <source>%n op input(s) name variables the program does not declare.</source>
        <translation>
            <numerusform>%n 个算子输入引用了程序未声明的变量。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not a valid JSON document (%1): a VisualDL graph file is the JSON that LogWriter.add_graph writes.</source>
        <translation>不是有效的 JSON 文档（%1）：VisualDL 图文件是 LogWriter.add_graph 写出的 JSON。</translation>
    </message>
    <message>
        <source>The file holds no &quot;nodes&quot; list: it is not a VisualDL graph.</source>
        <translation>文件中没有“nodes”列表：不是 VisualDL 图。</translation>
    </message>
    <message numerus="yes">
        <source>%n parameter(s) are shown with shape and type only: a VisualDL graph file does not hold their values.</source>
        <translation>
            <numerusform>%n 个参数仅显示形状和类型：VisualDL 图文件不保存其数值。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op input(s) name variables the file does not list.</source>
        <translation>
            <numerusform>%n 个算子输入引用了文件未列出的变量。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n control-flow bodies (Loop, If, Scan) are not shown: together the bodies would make more than %1 nodes, the limit for a file of %2 bytes (the first left out belongs to node &quot;%3&quot;).</source>
        <translation>
            <numerusform>%n 个控制流子图（Loop、If、Scan）未显示：这些子图合计将超过 %1 个节点，即 %2 字节文件的上限（第一个被略去的子图属于节点“%3”）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The parameter file cannot be opened: %1</source>
        <translation>无法打开参数文件：%1</translation>
    </message>
    <message>
        <source>%1 The values of %2 of the %3 saved parameters were located.</source>
        <translation>%1 已定位 %3 个已保存参数中 %2 个的值。</translation>
    </message>
    <message numerus="yes">
        <source>%n persistable variable(s) are shown as parameters with shape and type only: no parameter file (%1) is beside the model.</source>
        <translation>
            <numerusform>%n 个持久化变量仅以形状和类型显示为参数：模型旁没有参数文件（%1）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The values of %n parameter(s) are located in %1.</source>
        <translation>
            <numerusform>%n 个参数的值位于 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>one file per parameter</source>
        <translation>每个参数一个文件</translation>
    </message>
    <message numerus="yes">
        <source>%n saved parameter(s) differ in shape or type from the program (the first is &quot;%1&quot;); the parameter file may belong to another model.</source>
        <translation>
            <numerusform>%n 个已保存参数的形状或类型与程序不同（第一个是“%1”）；参数文件可能属于另一个模型。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not a valid JSON document (%1): a Paddle PIR program is the JSON paddle.jit.save writes.</source>
        <translation>不是有效的 JSON 文档（%1）：Paddle PIR 程序是 paddle.jit.save 写出的 JSON。</translation>
    </message>
    <message>
        <source>The JSON has no base_code with magic &quot;pir&quot;: it is not a Paddle PIR program.</source>
        <translation>该 JSON 没有 magic 为“pir”的 base_code：它不是 Paddle PIR 程序。</translation>
    </message>
    <message>
        <source>The PIR program holds no &quot;program&quot;: {&quot;regions&quot;: [...]}.</source>
        <translation>该 PIR 程序不含 &quot;program&quot;: {&quot;regions&quot;: [...]}。</translation>
    </message>
    <message>
        <source>The PIR program holds no op.</source>
        <translation>该 PIR 程序不含任何算子。</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) nest regions deeper than %1 levels; their bodies are left out.</source>
        <translation>
            <numerusform>%n 个算子的区域嵌套超过 %1 层；其主体被略去。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n operand(s) name values no op before them produces.</source>
        <translation>
            <numerusform>%n 个操作数引用了此前没有算子产生的值。</numerusform>
        </translation>
    </message>
    <message>
        <source>The model is larger than 2 GB, the limit of a protobuf message; MindSpore saves such models with their weights apart (`_graph.mindir` and `_variables`).</source>
        <translation>模型大于 2 GB，即 protobuf 消息的上限；MindSpore 会将此类模型的权重分开保存（`_graph.mindir` 与 `_variables`）。</translation>
    </message>
    <message>
        <source>Not a readable MindIR model: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读的 MindIR 模型：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>The MindIR model holds no graph.</source>
        <translation>该 MindIR 模型不含计算图。</translation>
    </message>
    <message>
        <source>The model was saved on a big-endian machine: its weights are stored in that byte order.</source>
        <translation>该模型保存于大端字节序的机器上：其权重按该字节序存储。</translation>
    </message>
    <message numerus="yes">
        <source>%n parameter(s) carry shape and type only, no values (the first is &quot;%1&quot;).</source>
        <translation>
            <numerusform>%n 个参数只有形状和类型，没有数值（第一个是“%1”）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n parameter(s) give an external data file, offset or length that cannot be used; their values cannot be shown (the first is &quot;%1&quot;).</source>
        <translation>
            <numerusform>%n 个参数给出的外部数据文件、偏移或长度无法使用；无法显示其数值（第一个是“%1”）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) refer to primitives the model does not list; their attributes are not known (the first is &quot;%1&quot;).</source>
        <translation>
            <numerusform>%n 个节点引用了模型未列出的原语；其属性未知（第一个是“%1”）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n function graph(s) repeat the name of another one and are left out.</source>
        <translation>
            <numerusform>%n 个函数子图与其他子图重名，已略去。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node input(s) name values no node, parameter or graph input of their graph produces.</source>
        <translation>
            <numerusform>%n 个节点输入引用的值不由其所在图中的任何节点、参数或图输入产生。</numerusform>
        </translation>
    </message>
    <message>
        <source>The checkpoint index is %1 MiB, too large to be an index; its variables are not listed.</source>
        <translation>检查点索引有 %1 MiB，作为索引过大；未列出其中的变量。</translation>
    </message>
    <message numerus="yes">
        <source>The checkpoint index cannot be read completely: %1; %n variable(s) were read before.</source>
        <translation>
            <numerusform>无法完整读取检查点索引：%1；此前已读取 %n 个变量。</numerusform>
        </translation>
    </message>
    <message>
        <source>The file holds %1 meta graphs; the first %2 were read.</source>
        <translation>文件包含 %1 个 meta graph；已读取前 %2 个。</translation>
    </message>
    <message>
        <source>The SavedModel is empty.</source>
        <translation>SavedModel 为空。</translation>
    </message>
    <message>
        <source>Not a readable TensorFlow SavedModel: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读取的 TensorFlow SavedModel：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>The SavedModel is damaged or cut off after byte %1; what was before it was read.</source>
        <translation>SavedModel 在第 %1 字节之后损坏或被截断；已读取此前的内容。</translation>
    </message>
    <message>
        <source>The SavedModel holds no meta graph.</source>
        <translation>SavedModel 中没有 meta graph。</translation>
    </message>
    <message>
        <source>The MetaGraphDef is empty.</source>
        <translation>MetaGraphDef 为空。</translation>
    </message>
    <message>
        <source>Not a readable TensorFlow MetaGraphDef: the protobuf data is damaged or of another kind.</source>
        <translation>不是可读取的 TensorFlow MetaGraphDef：protobuf 数据已损坏或属于其他类型。</translation>
    </message>
    <message>
        <source>The MetaGraphDef is damaged or cut off after byte %1; the %2 nodes before it were read.</source>
        <translation>MetaGraphDef 在第 %1 字节之后损坏或被截断；已读取此前的 %2 个节点。</translation>
    </message>
    <message>
        <source>The file is too short (%1 bytes) to be a TensorFlow Lite model.</source>
        <translation>文件太短（%1 字节），不可能是 TensorFlow Lite 模型。</translation>
    </message>
    <message>
        <source>Not a TensorFlow Lite model: the file identifier at bytes 4 to 8 is not &quot;TFL3&quot;.</source>
        <translation>不是 TensorFlow Lite 模型：第 4 到 8 字节的文件标识不是 &quot;TFL3&quot;。</translation>
    </message>
    <message>
        <source>The TensorFlow Lite model is damaged: its flatbuffer fails verification (an offset or length points outside the file, a string is not terminated, or the tables nest or repeat beyond the limits). Nothing of it is shown.</source>
        <translation>TensorFlow Lite 模型已损坏：其 flatbuffer 未通过校验（某个偏移或长度指向文件之外、某个字符串没有结尾，或表的嵌套或重复超出限制）。不显示其任何内容。</translation>
    </message>
    <message>
        <source>The TensorFlow Lite model holds no subgraph.</source>
        <translation>该 TensorFlow Lite 模型不含任何子图。</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor reference(s) name tensors the subgraph does not have; they are left unconnected (the first: %1).</source>
        <translation>
            <numerusform>%n 处张量引用指向子图中不存在的张量，这些引用未连接（第一处：%1）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n operator(s) name an operator code the model does not list.</source>
        <translation>
            <numerusform>%n 个算子引用了模型未列出的算子代码。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n control-flow or call reference(s) name subgraphs the model does not have (the first: %1).</source>
        <translation>
            <numerusform>%n 处控制流或调用引用指向模型中不存在的子图（第一处：%1）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) name a buffer that does not exist or lies beyond the end of the file; their values cannot be located (the first: %1).</source>
        <translation>
            <numerusform>%n 个张量引用的缓冲区不存在或位于文件末尾之后，无法定位其数值（第一个：%1）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op input(s) read tensors that no op makes and that hold no data.</source>
        <translation>
            <numerusform>%n 个算子输入读取的张量既不由任何算子产生，也不含数据。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::images</name>
    <message numerus="yes">
        <source>the image data is not a PNG, JPEG or GIF (%n bytes)</source>
        <translation>
            <numerusform>图像数据不是 PNG、JPEG 或 GIF（%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the %1 data is damaged and cannot be decoded (%n bytes): %2</source>
        <translation>
            <numerusform>%1 数据已损坏，无法解码（%n 字节）：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>x %1, y %2</source>
        <translation>x %1，y %2</translation>
    </message>
    <message>
        <source>value %1</source>
        <translation>值 %1</translation>
    </message>
    <message>
        <source>R %1 G %2 B %3</source>
        <translation>R %1 G %2 B %3</translation>
    </message>
    <message>
        <source> A %1</source>
        <translation> A %1</translation>
    </message>
    <message numerus="yes">
        <source>Only the first %n rows are shown.</source>
        <translation>
            <numerusform>只显示前 %n 行。</numerusform>
        </translation>
    </message>
    <message>
        <source>A rank-%1 text tensor, shown as rows of its last dimension.</source>
        <translation>%1 维文本张量，每行显示其最后一维。</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message numerus="yes">
        <source>list of %n</source>
        <translation>
            <numerusform>%n 项列表</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 table</source>
        <translation>%1 表格</translation>
    </message>
</context>
<context>
    <name>runlens::importers::FileMapping</name>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>%1: not a regular file</source>
        <translation>%1：不是普通文件</translation>
    </message>
    <message>
        <source>%1: the file has %2 bytes; %3 bytes at offset %4 are beyond its end</source>
        <translation>%1：文件共 %2 字节；偏移 %4 处的 %3 字节超出了文件末尾</translation>
    </message>
    <message>
        <source>%1: cannot map the file into memory: %2</source>
        <translation>%1：无法将文件映射到内存：%2</translation>
    </message>
    <message>
        <source>%1: too many files are mapped at once; close some tensors and try again</source>
        <translation>%1：同时映射的文件过多；请关闭一些张量后重试</translation>
    </message>
    <message>
        <source>%1: the file shrank or was replaced while it was read; values past its new end read as zeros. Open it again to see its current content.</source>
        <translation>%1：读取期间文件变小或被替换；超出其新末尾的值读作零。请重新打开以查看其当前内容。</translation>
    </message>
</context>
<context>
    <name>runlens::importers::ImportBudget</name>
    <message>
        <source>more than %1 of data</source>
        <translation>超过 %1 的数据</translation>
    </message>
    <message>
        <source>more than %1 values</source>
        <translation>超过 %1 个值</translation>
    </message>
    <message>
        <source>structures nested deeper than %1 levels</source>
        <translation>嵌套深度超过 %1 层的结构</translation>
    </message>
    <message>
        <source>Reading stopped: the file would produce %1, the limit for an input of %2 bytes. It is damaged or was made to exhaust memory; what was read before is kept.</source>
        <translation>读取已停止：该文件将产生%1，这是 %2 字节输入的上限。文件已损坏，或被刻意构造以耗尽内存；已读取的内容予以保留。</translation>
    </message>
    <message>
        <source>Reading stopped: the file would produce %1. It is damaged or was made to exhaust memory; what was read before is kept.</source>
        <translation>读取已停止：该文件将产生%1。文件已损坏，或被刻意构造以耗尽内存；已读取的内容予以保留。</translation>
    </message>
</context>
<context>
    <name>runlens::importers::ImportSession</name>
    <message numerus="yes">
        <source>Imported %n file(s)</source>
        <translation>
            <numerusform>已导入 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Importing %1 of %2 files…</source>
        <translation>正在导入第 %1 个文件，共 %2 个…</translation>
    </message>
    <message>
        <source>Nothing could be read from this file (%1). If it is part of a larger output, open the folder it came from.</source>
        <translation>无法从此文件（%1）读取任何内容。如果它属于更大的输出，请打开它所在的文件夹。</translation>
    </message>
</context>
<context>
    <name>runlens::importers::ProfilerImporter</name>
    <message>
        <source>No profiler data could be read from these files: the operator, step and timeline tables a profiler folder needs are missing.</source>
        <translation>无法从这些文件读取性能分析数据：缺少性能分析文件夹所需的算子、迭代和时间线表格。</translation>
    </message>
</context>
<context>
    <name>runlens::importers::RunScanner</name>
    <message>
        <source>No folder or file was given to scan.</source>
        <translation>没有指定要扫描的文件夹或文件。</translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be read: %2. Check its permissions.</source>
        <translation>无法读取文件夹 %1：%2。请检查其权限。</translation>
    </message>
    <message>
        <source>The folder of %1 cannot be read: %2.</source>
        <translation>无法读取 %1 所在的文件夹：%2。</translation>
    </message>
    <message>
        <source>%1 is neither a folder nor a regular file.</source>
        <translation>%1 既不是文件夹也不是普通文件。</translation>
    </message>
    <message>
        <source>The scan of %1 was canceled; the list of files is incomplete.</source>
        <translation>对 %1 的扫描已取消；文件列表不完整。</translation>
    </message>
    <message>
        <source>Stopped after %1 entries: %2 holds more than the scan limit, files after %3 were not listed. Open a subfolder to see the rest.</source>
        <translation>在 %1 个条目后停止：%2 中的条目超过扫描上限，%3 之后的文件未列出。请打开子文件夹查看其余部分。</translation>
    </message>
    <message>
        <source>The folder %1 (a symbolic link) cannot be read: %2.</source>
        <translation>无法读取文件夹 %1（符号链接）：%2。</translation>
    </message>
    <message>
        <source>%1 is a symbolic link to %2, which contains it (a loop); it was not followed.</source>
        <translation>%1 是指向 %2 的符号链接，而后者包含它（循环）；未跟随该链接。</translation>
    </message>
    <message>
        <source>%1 is a symbolic link to %2, which was already scanned; it was not followed again.</source>
        <translation>%1 是指向 %2 的符号链接，后者已被扫描；未再次跟随。</translation>
    </message>
    <message numerus="yes">
        <source>%n folder(s) more than %1 levels below %2 were not scanned, for example %3.</source>
        <translation>
            <numerusform>%2 下超过 %1 层的 %n 个文件夹未被扫描，例如 %3。</numerusform>
        </translation>
    </message>
    <message>
        <source>The folder %1 cannot be read: %2.</source>
        <translation>无法读取文件夹 %1：%2。</translation>
    </message>
    <message>
        <source>Reading the folder %1 failed: %2; some files may be missing.</source>
        <translation>读取文件夹 %1 失败：%2；可能缺少部分文件。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be read: %2. Its files were not listed.</source>
        <translation>无法读取文件夹 %1：%2。其中的文件未被列出。</translation>
    </message>
    <message>
        <source>%1 is the same folder as %2 (a mount loop); it was not scanned again.</source>
        <translation>%1 与 %2 是同一个文件夹（挂载循环）；未再次扫描。</translation>
    </message>
    <message>
        <source>The file %1 cannot be read: %2. Check its permissions.</source>
        <translation>无法读取文件 %1：%2。请检查其权限。</translation>
    </message>
    <message>
        <source>The file %1 cannot be read: %2.</source>
        <translation>无法读取文件 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation>%1 不是普通文件。</translation>
    </message>
    <message>
        <source>The file %1 cannot be read.</source>
        <translation>无法读取文件 %1。</translation>
    </message>
    <message>
        <source>%1 is not a file RunLens can read.</source>
        <translation>%1 不是 RunLens 能读取的文件。</translation>
    </message>
    <message>
        <source>%1 is named like a %2 file but is empty, perhaps not written yet; scan again later.</source>
        <translation>%1 的名称像 %2 文件，但内容为空，可能尚未写入；请稍后重新扫描。</translation>
    </message>
    <message>
        <source>%1 is named like a %2 file but its content is not one; it was left out.</source>
        <translation>%1 的名称像 %2 文件，但其内容并不是；已忽略。</translation>
    </message>
</context>
<context>
    <name>runlens::importers::demo::DemoRun</name>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>runlens::importers::graph::PaddleParams</name>
    <message>
        <source>The file ends before the parameter &quot;%1&quot;.</source>
        <translation>文件在参数“%1”之前结束。</translation>
    </message>
    <message>
        <source>The record of &quot;%1&quot; does not start as a saved tensor does (version %2, %3 LoD levels).</source>
        <translation>“%1”的记录开头不像已保存的张量（版本 %2，%3 个 LoD 层级）。</translation>
    </message>
    <message>
        <source>The LoD of &quot;%1&quot; runs past the end of the file.</source>
        <translation>“%1”的 LoD 超出了文件末尾。</translation>
    </message>
    <message>
        <source>The file ends inside the record of &quot;%1&quot;.</source>
        <translation>文件在“%1”的记录中途结束。</translation>
    </message>
    <message>
        <source>The tensor header of &quot;%1&quot; is damaged (version %2, a description of %3 bytes).</source>
        <translation>“%1”的张量头已损坏（版本 %2，描述 %3 字节）。</translation>
    </message>
    <message>
        <source>The tensor description of &quot;%1&quot; is not readable.</source>
        <translation>无法读取“%1”的张量描述。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is stored as type %2 with %3 dimensions, not a tensor of numbers.</source>
        <translation>“%1”以类型 %2、%3 个维度保存，不是数值张量。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; has an impossible shape.</source>
        <translation>“%1”的形状不可能存在。</translation>
    </message>
    <message>
        <source>The values of &quot;%1&quot; (%2 bytes by its shape) run past the end of the file.</source>
        <translation>“%1”的值（按其形状为 %2 字节）超出了文件末尾。</translation>
    </message>
    <message>
        <source>The values of &quot;%1&quot; cannot be read.</source>
        <translation>无法读取“%1”的值。</translation>
    </message>
    <message>
        <source>%1 bytes follow the last parameter: the file holds parameters the program does not name, or another program&apos;s.</source>
        <translation>最后一个参数之后还有 %1 字节：文件包含程序未声明的参数，或属于另一个程序。</translation>
    </message>
</context>
<context>
    <name>runlens::importers::memory::PickleDecoder</name>
    <message>
        <source>pickle opcode %1 at offset %2 %3; refused: RunLens reads only tensors, storages and containers (what torch.load with weights_only=True allows) and never imports or runs code from a file</source>
        <translation>偏移 %2 处的 pickle 操作码 %1 %3；已拒绝：RunLens 只读取张量、存储和容器（即 torch.load 在 weights_only=True 时允许的内容），绝不导入或运行文件中的代码</translation>
    </message>
    <message>
        <source>STACK_GLOBAL with fewer than two values on the stack</source>
        <translation>STACK_GLOBAL 执行时栈上的值少于两个</translation>
    </message>
    <message>
        <source>STACK_GLOBAL of values that are not strings</source>
        <translation>STACK_GLOBAL 的操作数不是字符串</translation>
    </message>
    <message>
        <source>refers to the Python object %1</source>
        <translation>引用了 Python 对象 %1</translation>
    </message>
    <message>
        <source>REDUCE with fewer than two values on the stack</source>
        <translation>REDUCE 执行时栈上的值少于两个</translation>
    </message>
    <message>
        <source>calls a value that is not an allowed function</source>
        <translation>调用了一个不是允许函数的值</translation>
    </message>
    <message>
        <source>REDUCE arguments are not a tuple</source>
        <translation>REDUCE 的参数不是元组</translation>
    </message>
    <message>
        <source>collections.OrderedDict called with arguments</source>
        <translation>调用 collections.OrderedDict 时带有参数</translation>
    </message>
    <message>
        <source>torch.Size called without one sequence of sizes</source>
        <translation>调用 torch.Size 时没有给出一个尺寸序列</translation>
    </message>
    <message>
        <source>calls %1, which is not a function</source>
        <translation>调用了 %1，它不是函数</translation>
    </message>
    <message>
        <source>BUILD with fewer than two values on the stack</source>
        <translation>BUILD 执行时栈上的值少于两个</translation>
    </message>
    <message>
        <source>sets the state of a value that is neither a dict nor a tensor</source>
        <translation>设置了一个既不是字典也不是张量的值的状态</translation>
    </message>
    <message>
        <source>BINPERSID with an empty stack</source>
        <translation>BINPERSID 执行时栈为空</translation>
    </message>
    <message>
        <source>names a persistent object that is not a (&quot;storage&quot;, ...) tuple</source>
        <translation>指定的持久化对象不是 (&quot;storage&quot;, ...) 元组</translation>
    </message>
    <message>
        <source>would import, call or build Python objects</source>
        <translation>会导入、调用或构造 Python 对象</translation>
    </message>
</context>
<context>
    <name>runlens::importers::profiler::CsvTable</name>
    <message numerus="yes">
        <source>%n more line(s) with problems were not listed</source>
        <translation>
            <numerusform>另有 %n 行有问题，未列出</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::importers::system::NpuSmiReader</name>
    <message>
        <source>Ascend&apos;s npu-smi is not on PATH: no NPU metrics.</source>
        <translation>PATH 中没有昇腾的 npu-smi：不记录 NPU 指标。</translation>
    </message>
    <message>
        <source>npu-smi info failed or did not answer within %1 s: no NPU metrics.</source>
        <translation>npu-smi info 执行失败或在 %1 秒内无响应：不记录 NPU 指标。</translation>
    </message>
    <message>
        <source>npu-smi info printed no device table RunLens can read: no NPU metrics.</source>
        <translation>npu-smi info 未输出 RunLens 能读取的设备表：不记录 NPU 指标。</translation>
    </message>
</context>
<context>
    <name>runlens::importers::system::NvmlReader</name>
    <message>
        <source>NVIDIA&apos;s management library (libnvidia-ml.so.1) is not installed: no GPU metrics.</source>
        <translation>未安装 NVIDIA 管理库（libnvidia-ml.so.1）：没有 GPU 指标。</translation>
    </message>
    <message>
        <source>libnvidia-ml.so.1 lacks the functions RunLens reads: no GPU metrics.</source>
        <translation>libnvidia-ml.so.1 缺少 RunLens 读取的函数：没有 GPU 指标。</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s management library could not start (error %1): no GPU metrics.</source>
        <translation>NVIDIA 管理库无法启动（错误 %1）：没有 GPU 指标。</translation>
    </message>
</context>
<context>
    <name>runlens::loggers</name>
    <message>
        <source>The file cannot be read: %1.</source>
        <translation>无法读取该文件：%1。</translation>
    </message>
    <message>
        <source>The file is too large to read as a table.</source>
        <translation>该文件太大，无法作为表格读取。</translation>
    </message>
    <message>
        <source>The file holds no table.</source>
        <translation>该文件中没有表格。</translation>
    </message>
    <message>
        <source>Hyper-parameters that are lists or nested settings are not shown: %1.</source>
        <translation>列表或嵌套设置形式的超参数不显示：%1。</translation>
    </message>
    <message>
        <source>The file has no &quot;log_history&quot; list; it is not a complete Hugging Face trainer_state.json (perhaps cut while written).</source>
        <translation>该文件没有 &quot;log_history&quot; 列表，不是完整的 Hugging Face trainer_state.json（可能在写入时被截断）。</translation>
    </message>
    <message numerus="yes">
        <source>%n log_history entries could not be read and were left out.</source>
        <translation>
            <numerusform>有 %n 条 log_history 记录无法读取，已略过。</numerusform>
        </translation>
    </message>
    <message>
        <source>The file cannot be opened: %1.</source>
        <translation>无法打开该文件：%1。</translation>
    </message>
    <message>
        <source>The metric file cannot be read; it is left out.</source>
        <translation>无法读取该指标文件，已略过。</translation>
    </message>
    <message numerus="yes">
        <source>%n metric lines are not &quot;timestamp value step&quot; and were left out.</source>
        <translation>
            <numerusform>有 %n 行指标不是“时间戳 值 步数”格式，已略过。</numerusform>
        </translation>
    </message>
    <message>
        <source>No step column (step, global_step, iteration, iter or epoch); the row number is the step.</source>
        <translation>没有步数列（step、global_step、iteration、iter 或 epoch），以行号作为步数。</translation>
    </message>
    <message>
        <source>The row has more cells than the header; the extra cells are left out.</source>
        <translation>该行的单元格多于表头，多出的单元格已略过。</translation>
    </message>
    <message>
        <source>The row has no step; it is left out.</source>
        <translation>该行没有步数，已略过。</translation>
    </message>
    <message>
        <source>Column &quot;%1&quot; holds text, not numbers; it is not shown as a scalar.</source>
        <translation>列 &quot;%1&quot; 是文本而非数字，不作为标量显示。</translation>
    </message>
    <message>
        <source>Column &quot;%1&quot; has a cell that is not a number (&quot;%2&quot;); such cells are left out.</source>
        <translation>列 &quot;%1&quot; 中有非数字的单元格（&quot;%2&quot;），这类单元格已略过。</translation>
    </message>
    <message>
        <source>The line is not a JSON object; it is left out.</source>
        <translation>该行不是 JSON 对象，已略过。</translation>
    </message>
    <message>
        <source>Key &quot;%1&quot; holds text, not numbers; it is not shown as a scalar.</source>
        <translation>键 &quot;%1&quot; 是文本而非数字，不作为标量显示。</translation>
    </message>
    <message>
        <source>The line is not a dcgmi dmon row; it is left out.</source>
        <translation>该行不是 dcgmi dmon 的数据行，已略过。</translation>
    </message>
    <message>
        <source>No header line: the columns are read as timestamp, index, utilization.gpu, memory.used, memory.total, power.draw, clocks.sm, temperature.gpu.</source>
        <translation>没有表头行：各列按 timestamp、index、utilization.gpu、memory.used、memory.total、power.draw、clocks.sm、temperature.gpu 读取。</translation>
    </message>
    <message>
        <source>No step or time column (step, global_step, iteration, iter, epoch, time, timestamp, wall_time); the table is not read as scalars.</source>
        <translation>没有步数或时间列（step、global_step、iteration、iter、epoch、time、timestamp、wall_time），该表格不作为标量读取。</translation>
    </message>
    <message>
        <source>%1 holds this history and more; this copy is not read.</source>
        <translation>%1 包含这段历史及之后的记录，此副本不再读取。</translation>
    </message>
    <message>
        <source>%1 holds this run&apos;s history; this copy is not read.</source>
        <translation>%1 保存了此运行的历史记录；此副本不再读取。</translation>
    </message>
    <message>
        <source>The W&amp;B run file is damaged in more places; they are not listed.</source>
        <translation>W&amp;B 运行文件还有更多损坏之处，不再逐一列出。</translation>
    </message>
    <message>
        <source>%1 does not start with the header of a W&amp;B run file (&quot;:W&amp;B&quot;, magic 0xBEE1, version 0); it is not read.</source>
        <translation>%1 不是以 W&amp;B 运行文件的文件头（&quot;:W&amp;B&quot;、魔数 0xBEE1、版本 0）开始的；不读取该文件。</translation>
    </message>
    <message>
        <source>a record declares %1 bytes, past the end of its 32 KiB block</source>
        <translation>某条记录声明了 %1 字节，超出了其所在 32 KiB 块的末尾</translation>
    </message>
    <message>
        <source>a record has the unknown fragment type %1</source>
        <translation>某条记录的分片类型 %1 未知</translation>
    </message>
    <message>
        <source>a record&apos;s checksum does not match its data</source>
        <translation>某条记录的校验和与其数据不符</translation>
    </message>
    <message>
        <source>a record split over blocks was never finished</source>
        <translation>某条跨块拆分的记录没有写完</translation>
    </message>
    <message>
        <source>the rest of a record appears without its start</source>
        <translation>某条记录的后续部分出现了，但缺少其开头</translation>
    </message>
    <message>
        <source>a record is larger than %1 MiB</source>
        <translation>某条记录大于 %1 MiB</translation>
    </message>
    <message numerus="yes">
        <source>%n records of the W&amp;B run file are not W&amp;B records and were left out.</source>
        <translation>
            <numerusform>W&amp;B 运行文件中有 %n 条记录不是 W&amp;B 记录，已略过。</numerusform>
        </translation>
    </message>
    <message>
        <source>The W&amp;B run file is damaged here: %1; the rest of that 32 KiB block is left out.</source>
        <translation>W&amp;B 运行文件在此处损坏：%1；该 32 KiB 块的剩余部分被略过。</translation>
    </message>
    <message>
        <source>The W&amp;B run file is damaged here: %1; that record is left out.</source>
        <translation>W&amp;B 运行文件在此处损坏：%1；该记录被略过。</translation>
    </message>
    <message>
        <source>A history record holds a value that is not JSON; it is left out.</source>
        <translation>某条历史记录包含不是 JSON 的值；该记录被略过。</translation>
    </message>
    <message>
        <source>A system statistics record holds a value that is not JSON; it is left out.</source>
        <translation>某条系统统计记录包含不是 JSON 的值；该记录被略过。</translation>
    </message>
</context>
<context>
    <name>runlens::main</name>
    <message>
        <source>Load PATH, render the main window offscreen to FILE and exit.</source>
        <translation>加载 PATH，在屏幕外将主窗口渲染到 FILE 后退出。</translation>
    </message>
    <message>
        <source>Language of the interface: en or zh_CN.</source>
        <translation>界面语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>Run folder or file to open.</source>
        <translation>要打开的运行文件夹或文件。</translation>
    </message>
    <message>
        <source>No display found: writing a screenshot to %1 instead of opening a window.</source>
        <translation>未找到显示器：改为将截图写入 %1，而不打开窗口。</translation>
    </message>
    <message>
        <source>Screenshot written to %1</source>
        <translation>截图已写入 %1</translation>
    </message>
    <message>
        <source>Cannot write the screenshot %1</source>
        <translation>无法写入截图 %1</translation>
    </message>
    <message>
        <source>With --screenshot: bring the panel NAME to the front (its title, e.g. Tensors, Graph, Timeline).</source>
        <translation>与 --screenshot 一起使用：将名为 NAME 的面板置于前台（使用其标题，例如 Tensors、Graph、Timeline）。</translation>
    </message>
    <message>
        <source>There is no panel named %1.</source>
        <translation>没有名为 %1 的面板。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>Open PATH in a new window; by default it opens in the RunLens window already running.</source>
        <translation>在新窗口中打开 PATH；默认在已运行的 RunLens 窗口中打开。</translation>
    </message>
    <message>
        <source>Print the panel names --dock accepts, one per line, and exit.</source>
        <translation>打印 --dock 接受的面板名称（每行一个）后退出。</translation>
    </message>
    <message>
        <source>Open the dump BENCH and compare it with the dump PATH in the Accuracy panel.</source>
        <translation>打开转储 BENCH，并在精度比对面板中将其与转储 PATH 比对。</translation>
    </message>
    <message>
        <source>--compare needs a target dump: runlens --compare BENCH TARGET</source>
        <translation>--compare 需要目标转储：runlens --compare BENCH TARGET</translation>
    </message>
    <message>
        <source>RunLens: a desktop workbench for debugging and tuning deep-learning training runs.

Subcommands (run &apos;runlens COMMAND --help&apos; for their options):
  scan PATH [--json]       what a run folder holds
  info PATH [--json]       what each artifact imported to
  advise PATH [--json] [--rules FILE] [--fail-on warning|error]
                           expert-rule findings with their evidence (exit 1 at --fail-on)
  compare BENCH TARGET [--json|--csv|--md] [--mapping FILE] [--fail-on warning|error]
                           two runs&apos; dumps matched op by op, and the op where they part
  record [--interval 1s] [--out OUT] [--rank N] -- COMMAND [ARGS...]
                           run COMMAND and record the machine under it (CPU, memory, GPU...)
  export PATH --chart scalars:TAG --out FILE.{png,svg,pdf,csv}
  export PATH --chart graph:NAME --out FILE.{svg,png}
  digest PATH --out DIR [--ranks A-B]
                           one rank digest per rank of a job (open DIR as its cluster)
  demo DIR                 write the demo run folder</source>
        <translation>RunLens：用于调试和调优深度学习训练运行的桌面工作台。

子命令（运行 &apos;runlens COMMAND --help&apos; 查看其选项）：
  scan PATH [--json]       运行文件夹中包含的内容
  info PATH [--json]       每个工件导入的结果
  advise PATH [--json] [--rules FILE] [--fail-on warning|error]
                           专家规则的发现及其证据（达到 --fail-on 时退出码为 1）
  compare BENCH TARGET [--json|--csv|--md] [--mapping FILE] [--fail-on warning|error]
                           逐算子匹配两次运行的 dump，找出数值开始分歧的算子
  record [--interval 1s] [--out OUT] [--rank N] -- COMMAND [ARGS...]
                           运行 COMMAND 并记录其下的机器状态（CPU、内存、GPU…）
  export PATH --chart scalars:TAG --out FILE.{png,svg,pdf,csv}
  export PATH --chart graph:NAME --out FILE.{svg,png}
  digest PATH --out DIR [--ranks A-B]
                           为作业的每张卡生成一个卡摘要（将 DIR 作为其集群打开）
  demo DIR                 写入演示运行文件夹</translation>
    </message>
</context>
<context>
    <name>runlens::memory</name>
    <message>
        <source>cannot open the file: %1</source>
        <translation>无法打开文件：%1</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>not a MindSpore memory file name (memory_usage_summary_N.json, memory_usage_details_N.json, cpu_ms_memory_record_N.txt, memory_record.csv, operator_memory[_N].csv)</source>
        <translation>不是 MindSpore 内存文件名（memory_usage_summary_N.json、memory_usage_details_N.json、cpu_ms_memory_record_N.txt、memory_record.csv、operator_memory[_N].csv）</translation>
    </message>
    <message>
        <source>the file is %1 bytes, more than the %2 bytes a memory file of this kind can sensibly hold; not read</source>
        <translation>文件大小为 %1 字节，超过了此类内存文件合理范围内的 %2 字节；未读取</translation>
    </message>
    <message numerus="yes">
        <source>%n memory event(s) without readable args were skipped</source>
        <translation>
            <numerusform>跳过了 %n 个参数无法读取的内存事件</numerusform>
        </translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation>临时</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Autograd detail</source>
        <translation>Autograd 细节</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>&apos;segments&apos; is not a list; the memory held at snapshot time is unknown</source>
        <translation>“segments”不是列表；快照时占用的内存未知</translation>
    </message>
    <message>
        <source>%1 entries of &apos;segments&apos; are not dicts and were skipped</source>
        <translation>“segments”中有 %1 个条目不是字典，已跳过</translation>
    </message>
    <message>
        <source>&apos;device_traces&apos; is not a list; no allocation history was read</source>
        <translation>“device_traces”不是列表；未读取分配历史</translation>
    </message>
    <message>
        <source>%1 entries of &apos;device_traces&apos; are not dicts and were skipped</source>
        <translation>“device_traces”中有 %1 个条目不是字典，已跳过</translation>
    </message>
    <message>
        <source>%1 trace entries have an action this version does not know; they were ignored</source>
        <translation>%1 个跟踪条目的操作是此版本未知的；已忽略</translation>
    </message>
    <message>
        <source>the trace of %1 frees more than its segments account for (the snapshot may be inconsistent); its curves start at zero</source>
        <translation>%1 的跟踪释放的内存多于其内存段所能解释的（快照可能不一致）；其曲线从零开始</translation>
    </message>
    <message>
        <source>the pickle holds no dict; a CUDA memory snapshot is a dict with &apos;segments&apos; and &apos;device_traces&apos;</source>
        <translation>pickle 中没有字典；CUDA 内存快照是包含“segments”和“device_traces”的字典</translation>
    </message>
    <message>
        <source>the pickle has neither &apos;segments&apos; nor &apos;device_traces&apos;; it is not a CUDA memory snapshot</source>
        <translation>pickle 中既没有“segments”也没有“device_traces”；它不是 CUDA 内存快照</translation>
    </message>
    <message>
        <source>the file ends before its allocation history does; the curves show changes from zero, not the memory in use</source>
        <translation>文件在其分配历史结束之前就已结束；曲线显示的是相对零的变化，而不是占用的内存</translation>
    </message>
    <message>
        <source>not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not %3; the value is ignored</source>
        <translation>%1：“%2”不是%3；已忽略该值</translation>
    </message>
    <message>
        <source>%1 more values of the wrong type were ignored</source>
        <translation>另有 %1 个类型错误的值已被忽略</translation>
    </message>
    <message>
        <source>Expected a [ts, action, bytes, category] tuple; the rest of the file was skipped</source>
        <translation>应为 [ts, action, bytes, category] 元组；已跳过文件的其余部分</translation>
    </message>
    <message>
        <source>A memory timeline tuple is not four numbers; the rest of the file was skipped</source>
        <translation>内存时间线元组不是四个数字；已跳过文件的其余部分</translation>
    </message>
    <message>
        <source>A memory timeline tuple has more than four fields; the rest of the file was skipped</source>
        <translation>内存时间线元组多于四个字段；已跳过文件的其余部分</translation>
    </message>
    <message>
        <source>The memory timeline ends early (truncated file?); the rest was skipped</source>
        <translation>内存时间线提前结束（文件被截断？）；已跳过其余部分</translation>
    </message>
    <message>
        <source>Expected the list of times of a memory timeline</source>
        <translation>应为内存时间线的时间列表</translation>
    </message>
    <message>
        <source>A time of the memory timeline is not a number</source>
        <translation>内存时间线中的某个时间不是数字</translation>
    </message>
    <message>
        <source>The list of times of the memory timeline ends early (truncated file?)</source>
        <translation>内存时间线的时间列表提前结束（文件被截断？）</translation>
    </message>
    <message>
        <source>Expected the list of sizes of a memory timeline after its times</source>
        <translation>内存时间线的时间之后应为大小列表</translation>
    </message>
    <message>
        <source>Expected a list of sizes per category</source>
        <translation>应为每个类别的大小列表</translation>
    </message>
    <message>
        <source>A size of the memory timeline is not a number</source>
        <translation>内存时间线中的某个大小不是数字</translation>
    </message>
    <message>
        <source>A list of sizes of the memory timeline ends early (truncated file?)</source>
        <translation>内存时间线的某个大小列表提前结束（文件被截断？）</translation>
    </message>
    <message>
        <source>The memory timeline has more sizes than times; the extra sizes were skipped</source>
        <translation>内存时间线的大小多于时间；已跳过多余的大小</translation>
    </message>
    <message>
        <source>The memory timeline ends early (truncated file?)</source>
        <translation>内存时间线提前结束（文件被截断？）</translation>
    </message>
    <message>
        <source>Not a memory timeline: expected a JSON array</source>
        <translation>不是内存时间线：应为 JSON 数组</translation>
    </message>
    <message>
        <source>Unexpected data after the memory timeline; it was ignored</source>
        <translation>内存时间线之后有意外的数据；已忽略</translation>
    </message>
    <message>
        <source>Not a memory timeline: expected an array of [ts, action, bytes, category] tuples</source>
        <translation>不是内存时间线：应为 [ts, action, bytes, category] 元组的数组</translation>
    </message>
    <message>
        <source>the key &apos;%1&apos; is missing</source>
        <translation>缺少键“%1”</translation>
    </message>
    <message>
        <source>no rows after the header; the file may be truncated or still being written</source>
        <translation>表头之后没有数据行；文件可能被截断或仍在写入</translation>
    </message>
    <message>
        <source>no usable rows after the header: none of its %1 rows holds the values this table needs</source>
        <translation>表头之后没有可用的数据行：其 %1 行中没有一行包含此表所需的值</translation>
    </message>
    <message>
        <source>%1 more rows with problems were skipped</source>
        <translation>另有 %1 行有问题，已跳过</translation>
    </message>
    <message>
        <source>a memory usage summary must be a JSON object</source>
        <translation>内存使用摘要必须是 JSON 对象</translation>
    </message>
    <message>
        <source>the summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>memory usage details must be a JSON object of graphs</source>
        <translation>内存使用详情必须是由计算图组成的 JSON 对象</translation>
    </message>
    <message>
        <source>graph &apos;%1&apos; is not a JSON object; skipped</source>
        <translation>计算图“%1”不是 JSON 对象；已跳过</translation>
    </message>
    <message>
        <source>graph &apos;%1&apos;</source>
        <translation>图“%1”</translation>
    </message>
    <message>
        <source>graph %1</source>
        <translation>图 %1</translation>
    </message>
    <message>
        <source>%1, node</source>
        <translation>%1，节点</translation>
    </message>
    <message>
        <source>%1, tensor</source>
        <translation>%1，张量</translation>
    </message>
    <message>
        <source>%1, point</source>
        <translation>%1，数据点</translation>
    </message>
    <message>
        <source>the file lists no graphs</source>
        <translation>文件中没有列出计算图</translation>
    </message>
    <message>
        <source>the file is empty; a header with Timestamp and Total Allocated was expected</source>
        <translation>文件为空；应有包含 Timestamp 和 Total Allocated 的表头</translation>
    </message>
    <message>
        <source>no &apos;Timestamp&apos; column; the columns are: %1</source>
        <translation>没有“Timestamp”列；现有列为：%1</translation>
    </message>
    <message>
        <source>column &apos;%1&apos;: unknown time unit &apos;%2&apos;</source>
        <translation>列“%1”：未知的时间单位“%2”</translation>
    </message>
    <message>
        <source>column &apos;%1&apos;: unknown size unit &apos;%2&apos;; the column is skipped</source>
        <translation>列“%1”：未知的大小单位“%2”；已跳过该列</translation>
    </message>
    <message>
        <source>none of the columns &apos;Total Allocated&apos;, &apos;Total Reserved&apos;, &apos;Total Active&apos; is there (or none has a known unit); the columns are: %1</source>
        <translation>“Total Allocated”、“Total Reserved”、“Total Active”列都不存在（或都没有已知单位）；现有列为：%1</translation>
    </message>
    <message>
        <source>no &apos;Total Allocated&apos; column; only the other curves are shown</source>
        <translation>没有“Total Allocated”列；只显示其他曲线</translation>
    </message>
    <message>
        <source>line %1: column &apos;%2&apos; holds no time; the row is skipped</source>
        <translation>第 %1 行：列“%2”中没有时间；已跳过该行</translation>
    </message>
    <message>
        <source>line %1: column &apos;%2&apos; holds no number</source>
        <translation>第 %1 行：列“%2”中没有数字</translation>
    </message>
    <message>
        <source>the file is empty; a header with Name and Size was expected</source>
        <translation>文件为空；应有包含 Name 和 Size 的表头</translation>
    </message>
    <message>
        <source>no &apos;%1&apos; column; the columns are: %2</source>
        <translation>没有“%1”列；现有列为：%2</translation>
    </message>
    <message>
        <source>no &apos;%1&apos; column</source>
        <translation>没有“%1”列</translation>
    </message>
    <message>
        <source>column &apos;%1&apos;: unknown size unit &apos;%2&apos;</source>
        <translation>列“%1”：未知的大小单位“%2”</translation>
    </message>
    <message>
        <source>line %1: no operator name or no number in column &apos;%2&apos;; the row is skipped</source>
        <translation>第 %1 行：没有算子名称，或列“%2”中没有数字；已跳过该行</translation>
    </message>
    <message>
        <source>the value it adds to is not a %1</source>
        <translation>所添加到的值不是 %1</translation>
    </message>
    <message>
        <source>a key without a value</source>
        <translation>键没有对应的值</translation>
    </message>
    <message>
        <source>pickle opcode %1 at offset %2 refers to the Python object %3; refused: RunLens reads only plain data from pickles and never imports or runs code from a file</source>
        <translation>偏移 %2 处的 pickle 操作码 %1 引用了 Python 对象 %3；已拒绝：RunLens 只从 pickle 中读取纯数据，绝不导入或运行文件中的代码</translation>
    </message>
    <message>
        <source>pickle opcode %1 at offset %2 would import, call or build Python objects; refused: RunLens reads only plain data from pickles and never imports or runs code from a file</source>
        <translation>偏移 %2 处的 pickle 操作码 %1 会导入、调用或构建 Python 对象；已拒绝：RunLens 只从 pickle 中读取纯数据，绝不导入或运行文件中的代码</translation>
    </message>
    <message>
        <source>the pickle ends inside the opcode at offset %1 (0x%2); the file is truncated</source>
        <translation>pickle 在偏移 %1 处的操作码（0x%2）内部结束；文件被截断</translation>
    </message>
    <message>
        <source>malformed pickle at offset %1 (opcode 0x%2): %3</source>
        <translation>偏移 %1 处的 pickle 格式错误（操作码 0x%2）：%3</translation>
    </message>
    <message>
        <source>a string of %1 bytes is over the limit of %2</source>
        <translation>长度为 %1 字节的字符串超过了 %2 的上限</translation>
    </message>
    <message>
        <source>memo store with an empty stack</source>
        <translation>栈为空时存储 memo</translation>
    </message>
    <message>
        <source>memo index %1 is beyond the %2 entries a pickle can have stored by this offset</source>
        <translation>memo 索引 %1 超出了 pickle 在此偏移之前最多可存储的 %2 个条目</translation>
    </message>
    <message>
        <source>memo index %1 was never stored</source>
        <translation>memo 索引 %1 从未被存储</translation>
    </message>
    <message>
        <source>protocol %1 is newer than 5</source>
        <translation>协议 %1 比 5 更新</translation>
    </message>
    <message>
        <source>STOP with %1 values on the stack</source>
        <translation>STOP 时栈上有 %1 个值</translation>
    </message>
    <message>
        <source>nesting deeper than %1</source>
        <translation>嵌套深度超过 %1</translation>
    </message>
    <message>
        <source>POP with an empty stack</source>
        <translation>栈为空时执行 POP</translation>
    </message>
    <message>
        <source>POP_MARK without a MARK</source>
        <translation>POP_MARK 没有对应的 MARK</translation>
    </message>
    <message>
        <source>DUP with an empty stack</source>
        <translation>栈为空时执行 DUP</translation>
    </message>
    <message>
        <source>INT without a decimal line</source>
        <translation>INT 没有十进制行</translation>
    </message>
    <message>
        <source>negative LONG4 length</source>
        <translation>LONG4 长度为负</translation>
    </message>
    <message>
        <source>negative BINSTRING length</source>
        <translation>BINSTRING 长度为负</translation>
    </message>
    <message>
        <source>a tuple of %1 with fewer values on the stack</source>
        <translation>包含 %1 个值的元组，但栈上的值不足</translation>
    </message>
    <message>
        <source>a container opcode without a MARK</source>
        <translation>容器操作码没有对应的 MARK</translation>
    </message>
    <message>
        <source>too few values on the stack</source>
        <translation>栈上的值太少</translation>
    </message>
    <message>
        <source>nothing to add the values to</source>
        <translation>没有可以添加这些值的对象</translation>
    </message>
    <message>
        <source>a memo opcode without a memo index</source>
        <translation>memo 操作码没有 memo 索引</translation>
    </message>
    <message>
        <source>pickle opcode %1 (0x%2) at offset %3 belongs to the text protocols 0 and 1, which are not supported; save the data with protocol 2 or later</source>
        <translation>偏移 %3 处的 pickle 操作码 %1（0x%2）属于不受支持的文本协议 0 和 1；请使用协议 2 或更高版本保存数据</translation>
    </message>
    <message>
        <source>unknown opcode</source>
        <translation>未知操作码</translation>
    </message>
    <message>
        <source>the file is empty; a pickle was expected</source>
        <translation>文件为空；应为 pickle</translation>
    </message>
    <message>
        <source>not a pickle of protocol 2 or later (it does not start with the PROTO opcode 0x80)</source>
        <translation>不是协议 2 或更高版本的 pickle（不以 PROTO 操作码 0x80 开头）</translation>
    </message>
    <message>
        <source>the pickle ends at offset %1 before its STOP opcode; the file is truncated</source>
        <translation>pickle 在偏移 %1 处、STOP 操作码之前结束；文件被截断</translation>
    </message>
    <message>
        <source>reading was canceled at offset %1</source>
        <translation>读取在偏移 %1 处被取消</translation>
    </message>
</context>
<context>
    <name>runlens::models::Diagnostic</name>
    <message>
        <source>: offset %1</source>
        <translation>：偏移 %1</translation>
    </message>
    <message>
        <source>: line %1</source>
        <translation>：第 %1 行</translation>
    </message>
    <message>
        <source>Information</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>runlens::models::RunBrowserModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>卡</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) with problems</source>
        <translation>
            <numerusform>%n 个文件有问题</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n scalar point(s) in %1 tag(s)</source>
        <translation>
            <numerusform>%1 个标签中共 %n 个标量数据点</numerusform>
        </translation>
    </message>
    <message>
        <source>Still being written: new records are read as they arrive</source>
        <translation>仍在写入：新记录到达后即被读取</translation>
    </message>
    <message>
        <source>importing…</source>
        <translation>导入中…</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor</source>
        <translation>
            <numerusform>%n 个张量</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensors</source>
        <translation>
            <numerusform>%n 个张量</numerusform>
        </translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>steps %1–%2</source>
        <translation>第 %1–%2 步</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>partly read — hover</source>
        <translation>部分读取 — 悬停查看</translation>
    </message>
    <message>
        <source>failed — hover for why</source>
        <translation>失败 — 悬停查看原因</translation>
    </message>
    <message>
        <source>listed only</source>
        <translation>仅列出</translation>
    </message>
    <message>
        <source>canceled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>double-click to open</source>
        <translation>双击打开</translation>
    </message>
    <message>
        <source>Double-click to open it</source>
        <translation>双击即可打开</translation>
    </message>
    <message>
        <source>ranks %1–%2</source>
        <translation>rank %1–%2</translation>
    </message>
    <message numerus="yes">
        <source>Ranks %1 to %2 of this run (%n rank(s))</source>
        <translation>
            <numerusform>此运行的 rank %1 至 %2（共 %n 个 rank）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n 个 rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::models::advisor::RuleBook</name>
    <message>
        <source>%1: rule %2: %3</source>
        <translation>%1：规则 %2：%3</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 到 %2</translation>
    </message>
    <message>
        <source>&quot;params&quot; must be an object of names and numbers; ignored</source>
        <translation>&quot;params&quot; 必须是由名称和数值组成的对象；已忽略</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos; must be a number; ignored</source>
        <translation>参数 &apos;%1&apos; 必须是数值；已忽略</translation>
    </message>
    <message>
        <source>unknown %1 &apos;%2&apos; (one of %3)</source>
        <translation>未知的%1 &apos;%2&apos;（应为 %3 之一）</translation>
    </message>
    <message>
        <source>no rule with this id exists, and a new rule needs %1; skipped</source>
        <translation>不存在具有此 ID 的规则，而新规则需要 %1；已跳过</translation>
    </message>
    <message>
        <source>unknown evidence &apos;%1&apos; (one of %2)</source>
        <translation>未知的证据 &apos;%1&apos;（应为 %2 之一）</translation>
    </message>
    <message>
        <source>&quot;range&quot; must be [minimum, maximum] with minimum &lt;= maximum</source>
        <translation>&quot;range&quot; 必须为 [minimum, maximum]，且 minimum &lt;= maximum</translation>
    </message>
    <message>
        <source>the recommended threshold %1 is outside the range %2</source>
        <translation>推荐阈值 %1 超出了范围 %2</translation>
    </message>
    <message>
        <source>&quot;limit&quot; must be a whole number from 1 to %1</source>
        <translation>&quot;limit&quot; 必须是 1 到 %1 之间的整数</translation>
    </message>
    <message>
        <source>the rule is skipped</source>
        <translation>已跳过该规则</translation>
    </message>
    <message>
        <source>&quot;enabled&quot; must be true or false; ignored</source>
        <translation>&quot;enabled&quot; 必须为 true 或 false；已忽略</translation>
    </message>
    <message>
        <source>threshold %1 is outside the range %2; %3 is used</source>
        <translation>阈值 %1 超出了范围 %2；改用 %3</translation>
    </message>
    <message>
        <source>unknown field &apos;%1&apos; ignored</source>
        <translation>已忽略未知字段 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>the rule exists already (%1); a rule file may change only its threshold, enabled, severity and params, so %2 is ignored</source>
        <translation>该规则已存在（%1）；规则文件只能修改其 threshold、enabled、severity 和 params，因此忽略 %2</translation>
    </message>
    <message>
        <source>threshold must be a number; %1 is kept</source>
        <translation>阈值必须是数值；保留 %1</translation>
    </message>
    <message>
        <source>threshold %1 is outside the range %2; %3 is kept</source>
        <translation>阈值 %1 超出了范围 %2；保留 %3</translation>
    </message>
    <message>
        <source>%1: rule %2 is defined in %3 already; skipped</source>
        <translation>%1：规则 %2 已在 %3 中定义；已跳过</translation>
    </message>
    <message>
        <source>%1: cannot read the rule file: %2</source>
        <translation>%1：无法读取规则文件：%2</translation>
    </message>
    <message>
        <source>%1: %2 bytes is too large for a rule file</source>
        <translation>%1：%2 字节，对规则文件而言过大</translation>
    </message>
    <message>
        <source>%1: not valid JSON at offset %2: %3</source>
        <translation>%1：偏移量 %2 处不是有效的 JSON：%3</translation>
    </message>
    <message>
        <source>%1: not a rule file (an object with a &quot;rules&quot; array is expected)</source>
        <translation>%1：不是规则文件（应为包含 &quot;rules&quot; 数组的对象）</translation>
    </message>
    <message>
        <source>%1: no &quot;rules&quot; array</source>
        <translation>%1：没有 &quot;rules&quot; 数组</translation>
    </message>
    <message>
        <source>%1: entry %2 is not a rule (an object with an &quot;id&quot;)</source>
        <translation>%1：条目 %2 不是规则（应为带有 &quot;id&quot; 的对象）</translation>
    </message>
    <message>
        <source>%1: rule %2 appears more than once; entry %3 is ignored</source>
        <translation>%1：规则 %2 出现了多次；忽略条目 %3</translation>
    </message>
</context>
<context>
    <name>runlens::models::cluster</name>
    <message>
        <source>cluster: %1 rank(s) of %2%3</source>
        <translation>集群：%2 张卡中的 %1 张%3</translation>
    </message>
    <message>
        <source>  slowest rank %1: %2 ms (%3 % against the mean)%4</source>
        <translation>  最慢的卡 %1：%2 ms（相对平均值 %3 %）%4</translation>
    </message>
    <message>
        <source>, flagged</source>
        <translation>，已标记</translation>
    </message>
    <message>
        <source>  worst link %1-&gt;%2 %3: %4 GB/s (%5 % against the mean)%6</source>
        <translation>  最差链路 %1-&gt;%2 %3：%4 GB/s（相对平均值 %5 %）%6</translation>
    </message>
    <message>
        <source>  rank %1: step %2 ms, interval %3 ms, computation %4 ms, communication %5 ms, idle %6 ms</source>
        <translation>  卡 %1：迭代步 %2 ms，间隙 %3 ms，计算 %4 ms，通信 %5 ms，空闲 %6 ms</translation>
    </message>
</context>
<context>
    <name>runlens::models::graph::GraphOverlay</name>
    <message>
        <source>%1 of %2 nodes matched</source>
        <translation>匹配了 %2 个节点中的 %1 个</translation>
    </message>
    <message>
        <source> (%1 without -opN)</source>
        <translation>（其中 %1 个去掉 -opN 后匹配）</translation>
    </message>
    <message>
        <source>, %1% of op time</source>
        <translation>，占算子时间的 %1%</translation>
    </message>
</context>
<context>
    <name>runlens::models::graph::ScopeTree</name>
    <message>
        <source>section %1 of %2</source>
        <translation>第 %1 部分，共 %2 部分</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
</context>
<context>
    <name>runlens::models::memory::MemoryOpTableModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>Calls with at least one allocation or free inside</source>
        <translation>内部至少有一次分配或释放的调用</translation>
    </message>
    <message>
        <source>Allocated minus freed bytes, including the operators called inside</source>
        <translation>分配减去释放的字节数，包括内部调用的算子</translation>
    </message>
    <message>
        <source>Allocated minus freed bytes by this operator itself</source>
        <translation>此算子自身分配减去释放的字节数</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Size increase</source>
        <translation>大小增量</translation>
    </message>
    <message>
        <source>Self size increase</source>
        <translation>自身大小增量</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>Self allocations</source>
        <translation>自身分配次数</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Self allocated</source>
        <translation>自身已分配</translation>
    </message>
    <message>
        <source>Frees</source>
        <translation>释放次数</translation>
    </message>
    <message>
        <source>Self frees</source>
        <translation>自身释放次数</translation>
    </message>
    <message>
        <source>Freed</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>Self freed</source>
        <translation>自身已释放</translation>
    </message>
</context>
<context>
    <name>runlens::models::profiler::ProfilerOpTableModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Core</source>
        <translation>核类型</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Output shapes</source>
        <translation>输出形状</translation>
    </message>
    <message>
        <source>Formats</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>MFLOPs</source>
        <translation>MFLOPs</translation>
    </message>
    <message>
        <source>GFLOPS</source>
        <translation>GFLOPS</translation>
    </message>
</context>
<context>
    <name>runlens::models::summary::RunComparison</name>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>Loss function</source>
        <translation>损失函数</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备数</translation>
    </message>
    <message>
        <source>Parallel mode</source>
        <translation>并行模式</translation>
    </message>
    <message>
        <source>Train dataset</source>
        <translation>训练数据集</translation>
    </message>
    <message>
        <source>Train dataset size</source>
        <translation>训练数据集大小</translation>
    </message>
    <message>
        <source>Validation dataset</source>
        <translation>验证数据集</translation>
    </message>
    <message>
        <source>Validation dataset size</source>
        <translation>验证数据集大小</translation>
    </message>
    <message>
        <source>Dataset pipeline</source>
        <translation>数据处理流水线</translation>
    </message>
    <message>
        <source>Final loss (lineage)</source>
        <translation>最终损失（谱系）</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>Model size</source>
        <translation>模型大小</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>%1 (evaluation)</source>
        <translation>%1（评估）</translation>
    </message>
    <message>
        <source>%1 (user)</source>
        <translation>%1（用户）</translation>
    </message>
    <message>
        <source>MindSpore lineage: %1</source>
        <translation>MindSpore 谱系：%1</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>How the hparams session ended</source>
        <translation>超参数会话的结束方式</translation>
    </message>
    <message>
        <source>%1 (final)</source>
        <translation>%1（最终）</translation>
    </message>
    <message>
        <source>%1 (best)</source>
        <translation>%1（最佳）</translation>
    </message>
    <message>
        <source>%1 (best step)</source>
        <translation>%1（最佳步）</translation>
    </message>
    <message>
        <source>final %1 at step %2; best %3 at step %4 of %5 values</source>
        <translation>最终值 %1（第 %2 步）；最佳值 %3（第 %4 步），共 %5 个值</translation>
    </message>
    <message>
        <source>Best is the lowest value</source>
        <translation>最低值为最佳</translation>
    </message>
    <message>
        <source>Best is the highest value</source>
        <translation>最高值为最佳</translation>
    </message>
    <message>
        <source>A metric declared by the hparams experiment</source>
        <translation>超参数实验声明的指标</translation>
    </message>
</context>
<context>
    <name>runlens::models::tensor::SummaryTensorSet</name>
    <message>
        <source>written %1</source>
        <translation>写入于 %1</translation>
    </message>
</context>
<context>
    <name>runlens::models::tensor::SummaryTensorSource</name>
    <message>
        <source>%1, tag %2, step %3: %4</source>
        <translation>%1，标签 %2，第 %3 步：%4</translation>
    </message>
</context>
<context>
    <name>runlens::models::tensor::TensorFilterModel</name>
    <message>
        <source>Words must all occur in the tensor name. Also:
kind:weight   kind contains &apos;weight&apos;
step:30       has a version at step 30
step:10-50    has a version between steps 10 and 50
dtype:float16 element type contains &apos;float16&apos;
run:baseline  run name contains &apos;baseline&apos;
Example: conv1 kind:weight step:30</source>
        <translation>张量名称必须包含所有词。另外：
kind:weight   类别包含“weight”
step:30       在第 30 步有版本
step:10-50    在第 10 到 50 步之间有版本
dtype:float16 元素类型包含“float16”
run:baseline  运行名称包含“baseline”
示例：conv1 kind:weight step:30</translation>
    </message>
</context>
<context>
    <name>runlens::models::tensor::TensorListModel</name>
    <message>
        <source>(no run)</source>
        <translation>（无运行）</translation>
    </message>
    <message>
        <source>(top folder)</source>
        <translation>（顶层文件夹）</translation>
    </message>
    <message>
        <source>%1 · rank %2</source>
        <translation>%1 · 卡 %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n tensor series</source>
        <translation>
            <numerusform>%1：%n 个张量序列</numerusform>
        </translation>
    </message>
    <message>
        <source>NaN/Inf</source>
        <translation>NaN/Inf</translation>
    </message>
    <message>
        <source>finite</source>
        <translation>有限</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>Holds NaN or Inf values.</source>
        <translation>包含 NaN 或 Inf 值。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>数值</translation>
    </message>
</context>
<context>
    <name>runlens::models::tensor::TensorRows</name>
    <message>
        <source>Only a tensor of two or more dimensions has rows to project; this one has shape %1.</source>
        <translation>只有二维及以上的张量才有可投影的行；此张量的形状为 %1。</translation>
    </message>
    <message>
        <source>The tensor has no data to project.</source>
        <translation>该张量没有可投影的数据。</translation>
    </message>
    <message>
        <source>A tensor of shape %1 has too few rows or columns to project.</source>
        <translation>形状为 %1 的张量行或列太少，无法投影。</translation>
    </message>
    <message>
        <source>A tensor of shape %1 has %2 values, more than the %3 the Projector takes.</source>
        <translation>形状为 %1 的张量有 %2 个值，超过投影器可接受的 %3 个。</translation>
    </message>
</context>
<context>
    <name>runlens::models::trace::OperatorStatsModel</name>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%L1 ns</source>
        <translation>%L1 ns</translation>
    </message>
    <message>
        <source>%1
Input dims: %2</source>
        <translation>%1
输入维度：%2</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Duration minus the time of the CPU ops called inside</source>
        <translation>持续时间减去其内部调用的 CPU 算子的时间</translation>
    </message>
    <message>
        <source>Device time of kernels launched directly by this operator</source>
        <translation>此算子直接启动的内核的设备时间</translation>
    </message>
    <message>
        <source>Sum of the durations of every call</source>
        <translation>所有调用的持续时间之和</translation>
    </message>
    <message>
        <source>Device time of kernels launched by this operator or the operators it calls</source>
        <translation>此算子或其调用的算子所启动内核的设备时间</translation>
    </message>
    <message>
        <source>Share of all kernel time</source>
        <translation>占全部内核时间的比例</translation>
    </message>
    <message>
        <source>Share of the self time of all operators</source>
        <translation>占全部算子自身时间的比例</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Input dims</source>
        <translation>输入维度</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Host total</source>
        <translation>主机总计</translation>
    </message>
    <message>
        <source>Device total</source>
        <translation>设备总计</translation>
    </message>
    <message>
        <source>Host self</source>
        <translation>主机自身</translation>
    </message>
    <message>
        <source>Device self</source>
        <translation>设备自身</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Launched by</source>
        <translation>启动者</translation>
    </message>
</context>
<context>
    <name>runlens::models::trace::StepBreakdown</name>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Memcpy</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>Memset</source>
        <translation>内存置值</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>Data loader</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>CPU op</source>
        <translation>CPU 算子</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
</context>
<context>
    <name>runlens::models::trace::StepPhases</name>
    <message>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>runlens::pipeline</name>
    <message>
        <source>Not valid JSON (%1); the file is skipped.</source>
        <translation>不是有效的 JSON（%1）；已跳过该文件。</translation>
    </message>
    <message>
        <source>Expected a JSON object at the top; the file is skipped.</source>
        <translation>顶层应为 JSON 对象；已跳过该文件。</translation>
    </message>
    <message>
        <source>The summary has no op_ids list; its ops are not shown.</source>
        <translation>摘要中没有 op_ids 列表；不显示其算子。</translation>
    </message>
    <message>
        <source>Op id %1 of the summary is not a valid id; that op is skipped.</source>
        <translation>摘要中的算子 ID %1 不是有效的 ID；已跳过该算子。</translation>
    </message>
    <message>
        <source>No op_id column in the header; this is not a pipeline table.</source>
        <translation>表头中没有 op_id 列；这不是流水线表。</translation>
    </message>
    <message>
        <source>Not an op id; the row is skipped.</source>
        <translation>不是算子 ID；已跳过该行。</translation>
    </message>
    <message>
        <source>Not a list of queue sizes; the samples are left out.</source>
        <translation>不是队列大小列表；已略去这些采样。</translation>
    </message>
    <message>
        <source>Not a list of op ids; the op&apos;s children are left out.</source>
        <translation>不是算子 ID 列表；已略去该算子的子算子。</translation>
    </message>
    <message numerus="yes">
        <source>%n more row(s) could not be read.</source>
        <translation>
            <numerusform>另有 %n 行无法读取。</numerusform>
        </translation>
    </message>
    <message>
        <source>The pipeline table has no ops.</source>
        <translation>流水线表中没有算子。</translation>
    </message>
    <message>
        <source>No op_info list; the pipeline is not shown.</source>
        <translation>没有 op_info 列表；不显示流水线。</translation>
    </message>
    <message>
        <source>Entry %1 of op_info has no valid op_id; it is skipped.</source>
        <translation>op_info 的第 %1 项没有有效的 op_id；已跳过。</translation>
    </message>
    <message>
        <source>The pipeline file has no ops.</source>
        <translation>流水线文件中没有算子。</translation>
    </message>
    <message>
        <source>Expected &quot;type extra step value&quot; numbers; the line is skipped.</source>
        <translation>应为 &quot;type extra step value&quot; 数字；已跳过该行。</translation>
    </message>
    <message numerus="yes">
        <source>%n more line(s) could not be read.</source>
        <translation>
            <numerusform>另有 %n 行无法读取。</numerusform>
        </translation>
    </message>
    <message>
        <source>The queue file has no records.</source>
        <translation>队列文件中没有记录。</translation>
    </message>
    <message>
        <source>Expected &quot;GetNext start end queue_size&quot;; the line is skipped.</source>
        <translation>应为 &quot;GetNext start end queue_size&quot;；已跳过该行。</translation>
    </message>
    <message>
        <source>The device queue file has no GetNext records.</source>
        <translation>设备队列文件中没有 GetNext 记录。</translation>
    </message>
    <message>
        <source>Some utilisation arrays are longer than time_stamp; the extra values are left out.</source>
        <translation>部分利用率数组比 time_stamp 长；已略去多出的值。</translation>
    </message>
    <message>
        <source>The CPU utilisation file has no data.</source>
        <translation>CPU 利用率文件中没有数据。</translation>
    </message>
    <message>
        <source>Cannot open the file: %1</source>
        <translation>无法打开文件：%1</translation>
    </message>
    <message>
        <source>The file is %1 MB, more than a data pipeline file can be; it is skipped.</source>
        <translation>文件大小为 %1 MB，超出数据处理流水线文件可能的大小；已跳过。</translation>
    </message>
    <message>
        <source>Cannot read the file: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <source>Describes a different pipeline than %1; the ops of %1 are shown.</source>
        <translation>描述的流水线与 %1 不同；显示 %1 的算子。</translation>
    </message>
    <message>
        <source>Reading the data pipeline of rank %1 was cancelled; what was read is shown.</source>
        <translation>读取卡 %1 的数据处理流水线已取消；显示已读取的部分。</translation>
    </message>
    <message>
        <source>%1: its output queue is %2% full while its input from %3 is %4% full, so it cannot keep up with what it is given.</source>
        <translation>%1：其输出队列 %2% 满，而来自 %3 的输入队列 %4% 满，因此跟不上输入的速度。</translation>
    </message>
    <message>
        <source>%1: this source&apos;s output queue is only %2% full (below %3%), so reading the data is slow.</source>
        <translation>%1：此数据源的输出队列只有 %2% 满（低于 %3%），因此数据读取较慢。</translation>
    </message>
    <message>
        <source>%1: named by MindSpore&apos;s pipeline analysis: %2</source>
        <translation>%1：由 MindSpore 流水线分析指出：%2</translation>
    </message>
    <message>
        <source>Tune num_parallel_workers of the dataset (more workers, or fewer if the disk is the limit).</source>
        <translation>调整数据集的 num_parallel_workers（增加工作线程；若磁盘是瓶颈则减少）。</translation>
    </message>
    <message>
        <source>Raise num_parallel_workers or speed up the generator&apos;s Python code; failing that, convert the data to MindRecord.</source>
        <translation>增大 num_parallel_workers 或加快生成器的 Python 代码；若仍不行，将数据转换为 MindRecord。</translation>
    </message>
    <message>
        <source>Raise num_parallel_workers of the map, and prefer C++ transforms to Python ones.</source>
        <translation>增大 map 的 num_parallel_workers，并优先使用 C++ 变换而非 Python 变换。</translation>
    </message>
    <message>
        <source>Raise the prefetch size (mindspore.dataset.config.set_prefetch_size).</source>
        <translation>增大预取大小（mindspore.dataset.config.set_prefetch_size）。</translation>
    </message>
    <message>
        <source>Raise num_parallel_workers where the op has them, or move work out of this op.</source>
        <translation>在算子支持的地方增大 num_parallel_workers，或将工作移出此算子。</translation>
    </message>
    <message>
        <source>The host queue was empty in %1% of steps (more than %2%): the data pipeline is too slow; optimise data processing.</source>
        <translation>主机队列在 %1% 的迭代步中为空（超过 %2%）：数据处理流水线太慢；请优化数据处理。</translation>
    </message>
    <message>
        <source>The host queue is fine (empty in %1% of steps) but the device queue ran empty in %2 of %3 GetNext calls: sending data to the device is slow.</source>
        <translation>主机队列正常（在 %1% 的迭代步中为空），但设备队列在 %3 次 GetNext 调用中有 %2 次为空：向设备发送数据较慢。</translation>
    </message>
    <message>
        <source>The host queue was empty in %1% of steps and full in %2%: the input keeps up with training.</source>
        <translation>主机队列在 %1% 的迭代步中为空，在 %2% 中为满：输入跟得上训练。</translation>
    </message>
</context>
<context>
    <name>runlens::profiler</name>
    <message>
        <source>Iteration interval</source>
        <translation>迭代间隙</translation>
    </message>
    <message>
        <source>FP+BP</source>
        <translation>前向+反向</translation>
    </message>
    <message>
        <source>Tail</source>
        <translation>迭代拖尾</translation>
    </message>
    <message>
        <source>FP</source>
        <translation>FP</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (not overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <source>Communication (not overlapped, without receive)</source>
        <translation>通信（未被掩盖，不含接收）</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>runlens::projector::ProjectorPanel</name>
    <message>
        <source>%1 has more than %2 distinct values and not only numbers: one colour for all</source>
        <translation>%1 有超过 %2 个不同的值且不全是数字：所有点使用同一种颜色</translation>
    </message>
</context>
<context>
    <name>runlens::summary</name>
    <message>
        <source>The event at step %1 has no valid wall time (NaN); it was skipped.</source>
        <translation>第 %1 步的事件没有有效的挂钟时间（NaN）；已跳过。</translation>
    </message>
    <message>
        <source>The tag &quot;%1&quot; is a scalar, but its value at step %2 is a %3 tensor with %4 dimensions that does not hold one number; such values of this tag are skipped.</source>
        <translation>标签“%1”是标量，但它在第 %2 步的值是一个 %4 维的 %3 张量，并不只含一个数；该标签的此类值已跳过。</translation>
    </message>
    <message>
        <source>The record of %1 bytes is not a valid %2 event; it was skipped.</source>
        <translation>长度为 %1 字节的记录不是有效的 %2 事件；已跳过。</translation>
    </message>
    <message>
        <source>This is not a TFRecord summary file: its first record header fails its checksum.</source>
        <translation>这不是 TFRecord 摘要文件：其第一条记录的头部校验失败。</translation>
    </message>
    <message>
        <source>The length of the record at this offset fails its checksum, so the records after it cannot be located; the rest of the file is not read. The file is damaged (partly overwritten or concatenated).</source>
        <translation>此偏移处记录的长度校验失败，因此无法定位其后的记录；文件的其余部分未读取。该文件已损坏（部分被覆盖或被拼接）。</translation>
    </message>
    <message>
        <source>The record at this offset claims %1 bytes, more than a summary record may hold; the rest of the file is not read.</source>
        <translation>此偏移处的记录声称有 %1 字节，超过摘要记录允许的大小；文件的其余部分未读取。</translation>
    </message>
    <message>
        <source>Reading failed: %1. The rest of the file is not read; reopen the run to try again.</source>
        <translation>读取失败：%1。文件的其余部分未读取；请重新打开该运行再试。</translation>
    </message>
    <message>
        <source>The contents of the record of %1 bytes at this offset fail their checksum; the record was skipped. The file is damaged.</source>
        <translation>此偏移处长度为 %1 字节的记录内容校验失败；已跳过该记录。该文件已损坏。</translation>
    </message>
    <message numerus="yes">
        <source>%n more record(s) with the same problem were skipped.</source>
        <translation>
            <numerusform>另有 %n 条存在相同问题的记录被跳过。</numerusform>
        </translation>
    </message>
    <message>
        <source>The file became shorter (%1 bytes) than what was already read (%2 bytes): it was replaced or truncated. Reopen the run to read it again.</source>
        <translation>文件变得比已读取的部分更短（%1 字节，已读 %2 字节）：它被替换或截断了。请重新打开该运行以再次读取。</translation>
    </message>
    <message>
        <source>Cannot open the file: %1. Check that it exists and is readable.</source>
        <translation>无法打开文件：%1。请检查文件是否存在且可读。</translation>
    </message>
    <message>
        <source>Reading stopped: %1.</source>
        <translation>读取已停止：%1。</translation>
    </message>
    <message>
        <source>Cannot open %1 for writing: %2</source>
        <translation>无法打开 %1 进行写入：%2</translation>
    </message>
    <message>
        <source>The event file is not open.</source>
        <translation>事件文件未打开。</translation>
    </message>
    <message>
        <source>Cannot write to %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Tensor-encoded scalars exist only in TensorBoard event files.</source>
        <translation>张量编码的标量只存在于 TensorBoard 事件文件中。</translation>
    </message>
    <message>
        <source>The MetaGraphDef is damaged before its graph_def; no graph was read from it.</source>
        <translation>MetaGraphDef 在其 graph_def 之前已损坏；未从中读取计算图。</translation>
    </message>
    <message>
        <source>The graph of the event at step %1 (byte %2 of the graph): %3</source>
        <translation>第 %1 步事件的计算图（计算图第 %2 字节）：%3</translation>
    </message>
    <message>
        <source>The graph of the event at step %1: %2</source>
        <translation>第 %1 步事件的计算图：%2</translation>
    </message>
    <message>
        <source>The graph of the event at step %1 could not be read.</source>
        <translation>无法读取第 %1 步事件的计算图。</translation>
    </message>
    <message numerus="yes">
        <source>The file holds %n graph(s); the last one (step %1, at this offset) is shown.</source>
        <translation>
            <numerusform>文件包含 %n 个计算图；显示最后一个（第 %1 步，位于此偏移处）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The evaluation metrics are not a JSON object (%1); they were not read.</source>
        <translation>评估指标不是 JSON 对象（%1），未读取。</translation>
    </message>
    <message>
        <source>The evaluation metric &quot;%1&quot; is not a number; it was left out.</source>
        <translation>评估指标“%1”不是数字，已略过。</translation>
    </message>
    <message>
        <source>The record of %1 bytes is not a valid MindSpore lineage event; it was skipped.</source>
        <translation>这条 %1 字节的记录不是有效的 MindSpore 谱系事件，已跳过。</translation>
    </message>
    <message>
        <source>This is not a MindSpore lineage file: its first record header fails its checksum.</source>
        <translation>这不是 MindSpore 谱系文件：其第一条记录头的校验和不符。</translation>
    </message>
    <message>
        <source>The length of the record at this offset fails its checksum, so the records after it cannot be located; the rest of the file is not read. The file is damaged.</source>
        <translation>此偏移处记录长度的校验和不符，无法定位其后的记录；文件其余部分未读取。文件已损坏。</translation>
    </message>
    <message>
        <source>The record at this offset claims %1 bytes, more than a lineage record may hold; the rest of the file is not read.</source>
        <translation>此偏移处的记录声称有 %1 字节，超过谱系记录可容纳的大小；文件其余部分未读取。</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>hyper-parameters</source>
        <translation>超参数</translation>
    </message>
    <message>
        <source>tagged values</source>
        <translation>带标签的值</translation>
    </message>
    <message>
        <source>The record of %1 bytes at this offset is not a VisualDL record; it was skipped. The file is damaged, or the records after it are misaligned.</source>
        <translation>此偏移处这条 %1 字节的记录不是 VisualDL 记录，已跳过。文件已损坏，或其后的记录未对齐。</translation>
    </message>
    <message>
        <source>The record at this offset claims %1 bytes, more than a VisualDL record may hold; the rest of the file is not read. The file is damaged or is not a VisualDL log.</source>
        <translation>此偏移处的记录声称有 %1 字节，超过 VisualDL 记录可容纳的大小；文件其余部分未读取。文件已损坏，或不是 VisualDL 日志。</translation>
    </message>
    <message numerus="yes">
        <source>The tag &quot;%1&quot; holds %2 (%n value(s) so far): they are counted, and shown by a later version of RunLens that reads them.</source>
        <translation>
            <numerusform>标签“%1”包含%2（目前 %n 个值）：已计数，将由能读取它们的更新版本 RunLens 显示。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more record(s) that are not VisualDL records were skipped.</source>
        <translation>
            <numerusform>另有 %n 条不是 VisualDL 记录的记录被跳过。</numerusform>
        </translation>
    </message>
    <message>
        <source>The value of the tag &quot;%1&quot; at step %2 cannot be read: %3. Such values of this tag are skipped.</source>
        <translation>无法读取标签“%1”在第 %2 步的值：%3。该标签的此类值已跳过。</translation>
    </message>
    <message>
        <source>this tag held another kind of value before</source>
        <translation>此标签之前存放的是另一种类型的值</translation>
    </message>
    <message>
        <source>it is a %1 tensor, not a string tensor</source>
        <translation>它是 %1 张量，而不是字符串张量</translation>
    </message>
    <message>
        <source>its shape is invalid</source>
        <translation>其形状无效</translation>
    </message>
    <message>
        <source>its shape holds %1 strings but %2 are recorded</source>
        <translation>其形状应包含 %1 个字符串，但记录了 %2 个</translation>
    </message>
    <message>
        <source>its type %1 is not numeric</source>
        <translation>其类型 %1 不是数值类型</translation>
    </message>
    <message>
        <source>it has %L1 elements, more than the %L2 kept</source>
        <translation>它有 %L1 个元素，超过保留上限 %L2 个</translation>
    </message>
    <message>
        <source>its %1 bytes of content do not match its shape %2 of %3</source>
        <translation>其 %1 字节的内容与其形状 %2（%3）不符</translation>
    </message>
    <message>
        <source>its shape %1 holds %2 elements but no values are recorded</source>
        <translation>其形状 %1 应包含 %2 个元素，但没有记录任何值</translation>
    </message>
    <message>
        <source>it has %1 bucket counts for %2 bucket limits</source>
        <translation>它有 %1 个桶计数，却有 %2 个桶上限</translation>
    </message>
    <message>
        <source>a histogram tensor must have the shape [k, 3], not %1</source>
        <translation>直方图张量的形状必须为 [k, 3]，而不是 %1</translation>
    </message>
    <message>
        <source>a bucket has a negative width or count</source>
        <translation>某个桶的宽度或计数为负</translation>
    </message>
    <message>
        <source>an image tensor must start with the width and the height</source>
        <translation>图像张量必须以宽度和高度开头</translation>
    </message>
    <message>
        <source>its first two strings are not the image width and height</source>
        <translation>其前两个字符串不是图像的宽度和高度</translation>
    </message>
    <message>
        <source>a PR curve tensor must have the shape [6, N], not %1</source>
        <translation>PR 曲线张量的形状必须为 [6, N]，而不是 %1</translation>
    </message>
    <message>
        <source>its hyper-parameters plugin data cannot be decoded</source>
        <translation>无法解码其超参数插件数据</translation>
    </message>
    <message>
        <source>its shape %1 holds %2 elements but %3 values are recorded</source>
        <translation>其形状 %1 应包含 %2 个元素，但记录了 %3 个值</translation>
    </message>
    <message>
        <source>it has %1 counts but %2 bucket edges, where one edge more than counts is expected</source>
        <translation>它有 %1 个计数和 %2 个桶边界，而边界应比计数多一个</translation>
    </message>
    <message>
        <source>its bucket edges are not finite increasing numbers (edge %1 is %2)</source>
        <translation>其桶边界不是递增的有限数（边界 %1 为 %2）</translation>
    </message>
    <message>
        <source>bucket %1 has the count %2</source>
        <translation>桶 %1 的计数为 %2</translation>
    </message>
    <message>
        <source>it holds no thresholds</source>
        <translation>它不包含任何阈值</translation>
    </message>
    <message>
        <source>its arrays differ in length (TP %1, FP %2, TN %3, FN %4, precision %5, recall %6)</source>
        <translation>其各数组长度不一（TP %1，FP %2，TN %3，FN %4，精确率 %5，召回率 %6）</translation>
    </message>
    <message>
        <source>The %1 of the tag &quot;%2&quot; at step %3 was skipped: %4. The writer or the file is damaged.</source>
        <translation>已跳过标签“%2”在第 %3 步的%1：%4。写入程序或文件已损坏。</translation>
    </message>
    <message>
        <source>histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>PR curve</source>
        <translation>PR 曲线</translation>
    </message>
    <message>
        <source>its %L1 bytes would pass the %L2 bytes one import of this file may hold</source>
        <translation>其 %L1 字节将超过此文件一次导入可容纳的 %L2 字节</translation>
    </message>
    <message>
        <source>it has %L1 strings, more than the %L2 kept</source>
        <translation>它有 %L1 个字符串，超过保留上限 %L2</translation>
    </message>
    <message>
        <source>its strings hold %L1 bytes, more than the %L2 kept</source>
        <translation>其字符串共 %L1 字节，超过保留上限 %L2</translation>
    </message>
    <message>
        <source>it has %L1 buckets, more than the %L2 kept</source>
        <translation>它有 %L1 个桶，超过保留上限 %L2</translation>
    </message>
    <message>
        <source>it has %L1 thresholds, more than the %L2 kept</source>
        <translation>它有 %L1 个阈值，超过保留上限 %L2</translation>
    </message>
    <message>
        <source>its count arrays differ in length (TP %1, FP %2, TN %3, FN %4)</source>
        <translation>其计数数组长度不一致（TP %1、FP %2、TN %3、FN %4）</translation>
    </message>
    <message>
        <source>ROC curve</source>
        <translation>ROC 曲线</translation>
    </message>
    <message>
        <source>Only the histograms, images, audio, texts and tensors after this offset are left out; scalars are still read.</source>
        <translation>只略过此偏移之后的直方图、图像、音频、文本和张量；标量仍会读取。</translation>
    </message>
    <message>
        <source>its shape is not valid</source>
        <translation>其形状无效</translation>
    </message>
    <message>
        <source>an audio tensor has the shape [clips, 2] or [clips]</source>
        <translation>音频张量的形状应为 [片段数, 2] 或 [片段数]</translation>
    </message>
    <message>
        <source>it declares %L1 strings but holds %L2</source>
        <translation>它声明了 %L1 个字符串，但包含 %L2 个</translation>
    </message>
    <message>
        <source>it holds no points</source>
        <translation>其中没有任何点</translation>
    </message>
    <message>
        <source>its first point has no coordinates</source>
        <translation>其第一个点没有坐标</translation>
    </message>
    <message>
        <source>label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>label %1</source>
        <translation>标签 %1</translation>
    </message>
    <message>
        <source>The embeddings of the tag &quot;%1&quot; at step %2</source>
        <translation>标签“%1”在第 %2 步的嵌入</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n point(s) were skipped whose coordinates do not number %2 like the first point&apos;s. The writer or the file is damaged.</source>
        <translation>
            <numerusform>%1：跳过了 %n 个坐标数不同于第一个点（%2 个）的点。写入程序或文件已损坏。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n coordinate(s) that are not finite numbers read as 0.</source>
        <translation>
            <numerusform>%1：%n 个不是有限数的坐标按 0 读取。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 have %L2 dimensions; only the first %L3 are read.</source>
        <translation>%1 有 %L2 个维度；只读取前 %L3 个。</translation>
    </message>
    <message>
        <source>%1 hold %L2 points; only the first %L3 are read.</source>
        <translation>%1 有 %L2 个点；只读取前 %L3 个。</translation>
    </message>
    <message>
        <source>%1 have %L2 metadata columns; only the first %L3 are read.</source>
        <translation>%1 有 %L2 个元数据列；只读取前 %L3 列。</translation>
    </message>
    <message numerus="yes">
        <source>%n more damaged or cut value(s) were not reported one by one.</source>
        <translation>
            <numerusform>另有 %n 个损坏或被截断的值未逐一报告。</numerusform>
        </translation>
    </message>
    <message>
        <source>The log holds embeddings of more than %L1 tags; those of the tag &quot;%2&quot; and of further new tags are not read.</source>
        <translation>日志中有嵌入的标签超过 %L1 个；标签“%2”及其后新标签的嵌入不会读取。</translation>
    </message>
</context>
<context>
    <name>runlens::summary::wav</name>
    <message>
        <source>%1 bytes are too short for a WAV header (12 bytes at least)</source>
        <translation>%1 字节不足以构成 WAV 文件头（至少 12 字节）</translation>
    </message>
    <message>
        <source>RF64 (WAV over 4 GiB) is not supported</source>
        <translation>不支持 RF64（超过 4 GiB 的 WAV）</translation>
    </message>
    <message>
        <source>the bytes do not begin with &quot;RIFF&quot; (a WAV file does)</source>
        <translation>数据不以 &quot;RIFF&quot; 开头（WAV 文件应以此开头）</translation>
    </message>
    <message>
        <source>the RIFF file holds &quot;%1&quot;, not &quot;WAVE&quot; audio</source>
        <translation>该 RIFF 文件包含的是 &quot;%1&quot;，而不是 &quot;WAVE&quot; 音频</translation>
    </message>
    <message>
        <source>the format chunk declares %1 bytes; 16 to %2 are possible here</source>
        <translation>格式块声明了 %1 字节；此处只能是 16 到 %2 字节</translation>
    </message>
    <message>
        <source>the extensible format chunk has %1 bytes, not the 40 it needs</source>
        <translation>可扩展格式块有 %1 字节，而不是所需的 40 字节</translation>
    </message>
    <message>
        <source>the sample format %1 is not supported (only PCM and IEEE float are)</source>
        <translation>不支持采样格式 %1（只支持 PCM 和 IEEE 浮点）</translation>
    </message>
    <message>
        <source>%1 channels declared; 1 to %2 are supported</source>
        <translation>声明了 %1 个声道；支持 1 到 %2 个</translation>
    </message>
    <message>
        <source>the sample rate %1 Hz is not possible</source>
        <translation>采样率 %1 Hz 不可能</translation>
    </message>
    <message>
        <source>%1-bit PCM is not supported (8, 16, 24 and 32 bits are)</source>
        <translation>不支持 %1 位 PCM（支持 8、16、24 和 32 位）</translation>
    </message>
    <message>
        <source>%1-bit float samples are not supported (32 and 64 bits are)</source>
        <translation>不支持 %1 位浮点采样（支持 32 和 64 位）</translation>
    </message>
    <message>
        <source>the block size %1 does not match %2 channels of %3 bits</source>
        <translation>块大小 %1 与 %2 个 %3 位声道不符</translation>
    </message>
    <message>
        <source>the data chunk comes before the format chunk</source>
        <translation>数据块出现在格式块之前</translation>
    </message>
    <message>
        <source>no data chunk was found</source>
        <translation>未找到数据块</translation>
    </message>
    <message>
        <source>no format chunk was found</source>
        <translation>未找到格式块</translation>
    </message>
</context>
<context>
    <name>runlens::tensor</name>
    <message>
        <source>%1: element type &apos;%2&apos; (%3) is not a numeric type RunLens reads</source>
        <translation>%1：元素类型“%2”（%3）不是 RunLens 可读取的数值类型</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>%1: truncated: the shape needs %2 data bytes but only %3 follow the header</source>
        <translation>%1：文件被截断：形状需要 %2 字节数据，但文件头之后只有 %3 字节</translation>
    </message>
    <message>
        <source>a sign must be followed by digits</source>
        <translation>符号后面必须跟数字</translation>
    </message>
    <message>
        <source>the number is too large</source>
        <translation>数字太大</translation>
    </message>
    <message>
        <source>&apos;[&apos; is not closed by &apos;]&apos;</source>
        <translation>“[”没有对应的“]”</translation>
    </message>
    <message>
        <source>&apos;]&apos; without &apos;[&apos;</source>
        <translation>“]”没有对应的“[”</translation>
    </message>
    <message>
        <source>an index is missing</source>
        <translation>缺少一个索引</translation>
    </message>
    <message>
        <source>only one &apos;...&apos; is allowed</source>
        <translation>只允许一个“...”</translation>
    </message>
    <message>
        <source>a range has at most two &apos;:&apos;</source>
        <translation>一个范围最多有两个“:”</translation>
    </message>
    <message>
        <source>expected an integer, a range or &apos;...&apos;</source>
        <translation>应为整数、范围或“...”</translation>
    </message>
    <message>
        <source>the step of a range cannot be zero</source>
        <translation>范围的步长不能为零</translation>
    </message>
    <message>
        <source>unexpected &apos;%1&apos;</source>
        <translation>意外的“%1”</translation>
    </message>
    <message>
        <source>column %1: too many indices: %2 for a tensor of %3 dimensions</source>
        <translation>第 %1 列：索引过多：%3 维张量给出了 %2 个索引</translation>
    </message>
    <message>
        <source>column %1: index %2 is out of range for dimension %3 of size %4</source>
        <translation>第 %1 列：索引 %2 超出了大小为 %4 的第 %3 维的范围</translation>
    </message>
    <message>
        <source>column %1: %2</source>
        <translation>第 %1 列：%2</translation>
    </message>
    <message>
        <source>raw 2-byte elements (%1) read as bfloat16</source>
        <translation>原始 2 字节元素（%1）按 bfloat16 读取</translation>
    </message>
    <message>
        <source>raw bytes (%1) read as float8_e4m3fn, as the file name says</source>
        <translation>原始字节（%1）按文件名所示以 float8_e4m3fn 读取</translation>
    </message>
    <message>
        <source>raw bytes (%1) read as float8_e5m2, as the file name says</source>
        <translation>原始字节（%1）按文件名所示以 float8_e5m2 读取</translation>
    </message>
    <message>
        <source>member %1 cannot be read: %2</source>
        <translation>无法读取成员 %1：%2</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; is not a .npy array; skipped</source>
        <translation>成员“%1”不是 .npy 数组；已跳过</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; is encrypted; RunLens does not read encrypted archives</source>
        <translation>成员“%1”已加密；RunLens 不读取加密的归档</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; uses compression method %2, which RunLens cannot inflate</source>
        <translation>成员“%1”使用压缩方法 %2，RunLens 无法解压</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; claims an impossible size</source>
        <translation>成员“%1”声明的大小不可能成立</translation>
    </message>
    <message>
        <source>member &apos;%1&apos;: its local header is missing or damaged</source>
        <translation>成员“%1”：其本地文件头缺失或已损坏</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; runs past the end of the archive</source>
        <translation>成员“%1”超出了归档的末尾</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; cannot be inflated: %2</source>
        <translation>无法解压成员“%1”：%2</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; skipped: %2</source>
        <translation>已跳过成员“%1”：%2</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; skipped: element type &apos;%2&apos; (%3) is not a numeric type RunLens reads</source>
        <translation>已跳过成员“%1”：元素类型“%2”（%3）不是 RunLens 可读取的数值类型</translation>
    </message>
    <message>
        <source>%1: cannot list the archive: %2</source>
        <translation>%1：无法列出归档内容：%2</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; is not a JSON object; skipped</source>
        <translation>条目“%1”不是 JSON 对象；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; lacks a dtype string, a shape list or data_offsets; skipped</source>
        <translation>条目“%1”缺少 dtype 字符串、shape 列表或 data_offsets；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; has dtype &apos;%2&apos;, which RunLens does not read; skipped</source>
        <translation>条目“%1”的 dtype 为“%2”，RunLens 不读取该类型；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; has a shape that is not a list of non-negative integers; skipped</source>
        <translation>条目“%1”的形状不是非负整数列表；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; has a shape describing more data than any file can hold; skipped</source>
        <translation>条目“%1”的形状描述的数据量超过任何文件所能容纳的大小；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; has data_offsets that are not [begin, end] with begin &lt;= end; skipped</source>
        <translation>条目“%1”的 data_offsets 不是满足 begin &lt;= end 的 [begin, end]；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; ends at data byte %2, past the end of the file&apos;s %3 data bytes; skipped</source>
        <translation>条目“%1”结束于数据第 %2 字节，超出了文件 %3 字节数据的末尾；已跳过</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos; holds %2 bytes but its shape and dtype need %3; skipped</source>
        <translation>条目“%1”包含 %2 字节，但其形状和 dtype 需要 %3 字节；已跳过</translation>
    </message>
    <message>
        <source>%1: not a .safetensors file: it is shorter than the 8-byte header length</source>
        <translation>%1：不是 .safetensors 文件：其长度小于 8 字节的文件头长度字段</translation>
    </message>
    <message>
        <source>%1: not a .safetensors file or truncated: the header claims %2 bytes but only %3 follow</source>
        <translation>%1：不是 .safetensors 文件或已被截断：文件头声明 %2 字节，但其后只有 %3 字节</translation>
    </message>
    <message>
        <source>%1: the .safetensors header claims %2 bytes, more than the 100 MB the format allows</source>
        <translation>%1：.safetensors 文件头声明 %2 字节，超过该格式允许的 100 MB</translation>
    </message>
    <message>
        <source>%1: cannot read the .safetensors header: %2</source>
        <translation>%1：无法读取 .safetensors 文件头：%2</translation>
    </message>
    <message>
        <source>%1: the .safetensors header is not a JSON object</source>
        <translation>%1：.safetensors 文件头不是 JSON 对象</translation>
    </message>
    <message>
        <source>__metadata__ is not a JSON object; ignored</source>
        <translation>__metadata__ 不是 JSON 对象；已忽略</translation>
    </message>
    <message>
        <source>__metadata__ value of &apos;%1&apos; is not a string; ignored</source>
        <translation>__metadata__ 中“%1”的值不是字符串；已忽略</translation>
    </message>
    <message>
        <source>entries &apos;%1&apos; and &apos;%2&apos; share data bytes</source>
        <translation>条目“%1”和“%2”共用数据字节</translation>
    </message>
    <message>
        <source>Tensor skipped: %1</source>
        <translation>已跳过张量：%1</translation>
    </message>
    <message>
        <source>Tensor skipped: element type &apos;%1&apos; is not a numeric type</source>
        <translation>已跳过张量：元素类型“%1”不是数值类型</translation>
    </message>
    <message>
        <source>%1: this kind of tensor file is not read yet</source>
        <translation>%1：暂不读取这种张量文件</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; skipped: its directory entry places it at offset %2, beyond the end of the archive (%3 bytes); the archive is damaged or truncated</source>
        <translation>已跳过成员“%1”：其目录项将它放在偏移 %2，超出了归档末尾（%3 字节）；归档已损坏或被截断</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; skipped: its header declares %2 bytes but the member holds %3</source>
        <translation>已跳过成员“%1”：其头部声明 %2 字节，但成员只有 %3 字节</translation>
    </message>
    <message>
        <source>member &apos;%1&apos; skipped: it claims to inflate %2 bytes from %3, more than deflate can; the archive is damaged</source>
        <translation>已跳过成员“%1”：它声称从 %3 字节解压出 %2 字节，超出 deflate 的能力；归档已损坏</translation>
    </message>
    <message>
        <source>%1: the .safetensors header cannot be read: %2</source>
        <translation>%1：无法读取 .safetensors 头部：%2</translation>
    </message>
    <message>
        <source>it ends after %1 of %2 bytes</source>
        <translation>应有 %2 字节，但在 %1 字节后结束</translation>
    </message>
    <message>
        <source>%1: a torch.save file in the legacy format (PyTorch before 1.6, or _use_new_zipfile_serialization=False), which RunLens does not read; load it in Python and save it again with a current PyTorch</source>
        <translation>%1：旧格式的 torch.save 文件（PyTorch 1.6 之前，或 _use_new_zipfile_serialization=False），RunLens 不读取该格式；请在 Python 中加载后用当前版本的 PyTorch 重新保存</translation>
    </message>
    <message>
        <source>%1: not a torch.save file: it is neither a zip archive nor a legacy torch pickle</source>
        <translation>%1：不是 torch.save 文件：它既不是 zip 归档，也不是旧格式的 torch pickle</translation>
    </message>
    <message>
        <source>%1: a zip archive without a &lt;folder&gt;/data.pkl record; not a torch.save file</source>
        <translation>%1：zip 归档中没有 &lt;folder&gt;/data.pkl 记录；不是 torch.save 文件</translation>
    </message>
    <message>
        <source>is compressed; torch.save writes storages uncompressed</source>
        <translation>已压缩；torch.save 写入的存储是未压缩的</translation>
    </message>
    <message>
        <source>is encrypted</source>
        <translation>已加密</translation>
    </message>
    <message>
        <source>has a missing or damaged zip header</source>
        <translation>的 zip 头缺失或已损坏</translation>
    </message>
    <message>
        <source>runs past the end of the file</source>
        <translation>超出了文件末尾</translation>
    </message>
    <message>
        <source>%1: the tensors are stored big-endian (byteorder &apos;big&apos;), which RunLens does not read; save them again on a little-endian machine</source>
        <translation>%1：张量以大端字节序存储（byteorder 为“big”），RunLens 不读取；请在小端机器上重新保存</translation>
    </message>
    <message>
        <source>unknown byteorder record; little-endian assumed</source>
        <translation>未知的 byteorder 记录；按小端字节序读取</translation>
    </message>
    <message>
        <source>%1: %2/data.pkl claims %3 bytes, more than a torch.save structure can need; the file is damaged</source>
        <translation>%1：%2/data.pkl 声明 %3 字节，超过 torch.save 结构可能需要的大小；文件已损坏</translation>
    </message>
    <message>
        <source>%1: cannot read %2/data.pkl: %3</source>
        <translation>%1：无法读取 %2/data.pkl：%3</translation>
    </message>
    <message>
        <source>it holds no value</source>
        <translation>其中没有任何值</translation>
    </message>
    <message>
        <source>%1/data.pkl: %2</source>
        <translation>%1/data.pkl：%2</translation>
    </message>
    <message>
        <source>the file holds no tensors</source>
        <translation>文件中没有张量</translation>
    </message>
</context>
<context>
    <name>runlens::tensor::CopiedViewSource</name>
    <message>
        <source>%1: not enough memory to copy tensor &apos;%2&apos; (%3 bytes)</source>
        <translation>%1：内存不足，无法复制张量“%2”（%3 字节）</translation>
    </message>
</context>
<context>
    <name>runlens::tensor::InflatedMemberSource</name>
    <message>
        <source>%1: member &apos;%2&apos; changed since the archive was listed; open it again</source>
        <translation>%1：成员“%2”在列出归档后已更改；请重新打开</translation>
    </message>
    <message>
        <source>%1: member &apos;%2&apos; would take %3 bytes inflated, more than RunLens keeps in memory</source>
        <translation>%1：成员“%2”解压后将占用 %3 字节，超过 RunLens 在内存中保留的上限</translation>
    </message>
    <message>
        <source>%1: not enough memory to inflate member &apos;%2&apos; (%3 bytes)</source>
        <translation>%1：内存不足，无法解压成员“%2”（%3 字节）</translation>
    </message>
    <message>
        <source>%1: cannot open member &apos;%2&apos;: %3</source>
        <translation>%1：无法打开成员“%2”：%3</translation>
    </message>
    <message>
        <source>%1: cannot inflate member &apos;%2&apos;: %3</source>
        <translation>%1：无法解压成员“%2”：%3</translation>
    </message>
    <message>
        <source>it ends after %1 of %2 bytes</source>
        <translation>应有 %2 字节，但在 %1 字节后结束</translation>
    </message>
</context>
<context>
    <name>runlens::tensor::Walker</name>
    <message>
        <source>the tensor</source>
        <translation>该张量</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;</source>
        <translation>张量“%1”</translation>
    </message>
    <message>
        <source>values nested deeper than %1 levels (at &apos;%2&apos;) are skipped</source>
        <translation>嵌套超过 %1 层的值（位于“%2”）已跳过</translation>
    </message>
    <message numerus="yes">
        <source>%n bytes</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>a set of %n values</source>
        <translation>
            <numerusform>包含 %n 个值的集合</numerusform>
        </translation>
    </message>
    <message>
        <source>(not a tensor)</source>
        <translation>（不是张量）</translation>
    </message>
    <message>
        <source>more than %1 values that are not tensors; the rest are not listed</source>
        <translation>非张量的值超过 %1 个；其余的未列出</translation>
    </message>
    <message>
        <source>%1: a parameter without a tensor; skipped</source>
        <translation>%1：参数中没有张量；已跳过</translation>
    </message>
    <message>
        <source>%1: %2 called with %3 arguments; skipped</source>
        <translation>%1：调用 %2 时给出了 %3 个参数；已跳过</translation>
    </message>
    <message>
        <source>%1: its storage is not a (&apos;storage&apos;, type, key, location, size) record; skipped</source>
        <translation>%1：其存储不是 (&apos;storage&apos;, 类型, 键, 位置, 大小) 记录；已跳过</translation>
    </message>
    <message>
        <source>%1: its storage record names no storage type, key or size RunLens reads; skipped</source>
        <translation>%1：其存储记录中没有 RunLens 可读取的存储类型、键或大小；已跳过</translation>
    </message>
    <message>
        <source>%1: its offset, sizes or strides are not non-negative integers of matching rank (at most %2); skipped</source>
        <translation>%1：其偏移、尺寸或步长不是维数一致（最多 %2 维）的非负整数；已跳过</translation>
    </message>
    <message>
        <source>%1: its storage record data/%2 is missing from the archive; skipped</source>
        <translation>%1：归档中缺少其存储记录 data/%2；已跳过</translation>
    </message>
    <message>
        <source>%1: storage record data/%2 %3; skipped</source>
        <translation>%1：存储记录 data/%2 %3；已跳过</translation>
    </message>
    <message>
        <source>%1: storage data/%2 claims %3 elements of %4 bytes but its record holds %5 bytes; skipped</source>
        <translation>%1：存储 data/%2 声明 %3 个 %4 字节的元素，但其记录只有 %5 字节；已跳过</translation>
    </message>
    <message>
        <source>%1: sizes %2, strides %3 and offset %4 reach beyond its storage data/%5 of %6 elements; skipped</source>
        <translation>%1：尺寸 %2、步长 %3 和偏移 %4 超出了其 %6 个元素的存储 data/%5；已跳过</translation>
    </message>
    <message>
        <source>%1: a view of %2 bytes with strides %3 would have to be copied, more than RunLens copies out of a file of this size; skipped</source>
        <translation>%1：需要复制一个步长为 %3、大小为 %2 字节的视图，超过 RunLens 从这么大的文件中复制的上限；已跳过</translation>
    </message>
    <message>
        <source>view with strides %1, copied in C order</source>
        <translation>步长为 %1 的视图，已按 C 顺序复制</translation>
    </message>
    <message numerus="yes">
        <source>shares storage data/%1 with %n other tensor(s)</source>
        <translation>
            <numerusform>与其他 %n 个张量共用存储 data/%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::tensor::ZipArchive</name>
    <message>
        <source>%1: not a readable zip archive (%2); the file may be truncated or damaged</source>
        <translation>%1：不是可读取的 zip 归档（%2）；文件可能被截断或已损坏</translation>
    </message>
</context>
<context>
    <name>runlens::tensorview</name>
    <message>
        <source>Cannot write: %1</source>
        <translation>无法写入：%1</translation>
    </message>
    <message>
        <source>The tensor&apos;s elements lie outside its data.</source>
        <translation>张量的元素位于其数据范围之外。</translation>
    </message>
    <message>
        <source>Only tensors of at most two dimensions can be written as CSV; this one has %1.</source>
        <translation>只有不超过二维的张量才能写为 CSV；此张量有 %1 维。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::ChartExportMenu</name>
    <message>
        <source>Save the chart as a %1</source>
        <translation>将图表保存为%1</translation>
    </message>
    <message>
        <source>Export as PNG…</source>
        <translation>导出为 PNG…</translation>
    </message>
    <message>
        <source>Export as SVG…</source>
        <translation>导出为 SVG…</translation>
    </message>
    <message>
        <source>Export as PDF…</source>
        <translation>导出为 PDF…</translation>
    </message>
    <message>
        <source>Export as CSV…</source>
        <translation>导出为 CSV…</translation>
    </message>
    <message>
        <source>Cannot export to %1: the chart no longer exists.</source>
        <translation>无法导出到 %1：该图表已不存在。</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::ChartExporter</name>
    <message>
        <source>Cannot write %1: the folder %2 does not exist.</source>
        <translation>无法写入 %1：文件夹 %2 不存在。</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>PNG 图像</translation>
    </message>
    <message>
        <source>SVG drawing</source>
        <translation>SVG 矢量图</translation>
    </message>
    <message>
        <source>PDF document</source>
        <translation>PDF 文档</translation>
    </message>
    <message>
        <source>CSV table</source>
        <translation>CSV 表格</translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation>%1 (*.%2)</translation>
    </message>
    <message>
        <source>Cannot export to %1: unknown file type. Use a name ending in .png, .svg, .pdf or .csv.</source>
        <translation>无法导出到 %1：未知的文件类型。请使用以 .png、.svg、.pdf 或 .csv 结尾的文件名。</translation>
    </message>
    <message>
        <source>Cannot write the PNG image %1. Check that the folder is writable.</source>
        <translation>无法写入 PNG 图像 %1。请检查文件夹是否可写。</translation>
    </message>
    <message>
        <source>Cannot write the SVG drawing %1: %2</source>
        <translation>无法写入 SVG 矢量图 %1：%2</translation>
    </message>
    <message>
        <source>Chart exported by RunLens</source>
        <translation>由 RunLens 导出的图表</translation>
    </message>
    <message>
        <source>Cannot write the SVG drawing %1.</source>
        <translation>无法写入 SVG 矢量图 %1。</translation>
    </message>
    <message>
        <source>Cannot write the PDF document %1. Check that the folder is writable.</source>
        <translation>无法写入 PDF 文档 %1。请检查文件夹是否可写。</translation>
    </message>
    <message>
        <source>Cannot write the CSV table %1: %2</source>
        <translation>无法写入 CSV 表格 %1：%2</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::PanelHeader</name>
    <message>
        <source>More controls that do not fit the panel&apos;s width</source>
        <translation>面板宽度容纳不下的更多控件</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::SourceView</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 is %2 MiB, too large to show here.</source>
        <translation>%1 大小为 %2 MiB，太大，无法在此显示。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::StackedStepBars</name>
    <message>
        <source>Slowest step in a bar</source>
        <translation>每条柱中最慢的一步</translation>
    </message>
    <message numerus="yes">
        <source>%1 (each bar: mean of %n step(s))</source>
        <translation>
            <numerusform>%1（每条柱：%n 步的均值）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::widgets::accuracy::AccuracyGraph</name>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>not compared</source>
        <translation>未比对</translation>
    </message>
    <message>
        <source>Boxes show the worst verdict of their rows; groups the worst of the ops below them</source>
        <translation>方框显示其各行中最差的判定；分组显示其下各算子中最差的判定</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::accuracy::AccuracyPanel</name>
    <message>
        <source>Filter by name, kind or verdict</source>
        <translation>按名称、类型或判定筛选</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the comparison; the rows compared so far stay</source>
        <translation>停止比对；已比对的行保留</translation>
    </message>
    <message>
        <source>Write the comparison as CSV, Markdown or JSON (as runlens compare does)</source>
        <translation>将比对结果写为 CSV、Markdown 或 JSON（与 runlens compare 相同）</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <source>No comparison is available here.</source>
        <translation>此处无法进行比对。</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %1 with %2… %n row(s)</source>
        <translation>
            <numerusform>正在比对 %1 与 %2… %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n row(s)</source>
        <translation>
            <numerusform>已在 %n 行后取消</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 matched · %2 pass · %3 warning · %4 error · %5 unmatched</source>
        <translation>%1 已匹配 · %2 通过 · %3 警告 · %4 错误 · %5 未匹配</translation>
    </message>
    <message>
        <source>Error introduced at %1: %2</source>
        <translation>误差引入于 %1：%2</translation>
    </message>
    <message>
        <source>No divergence: every matched row passes.</source>
        <translation>无偏差：所有已匹配的行均通过。</translation>
    </message>
    <message>
        <source>Nothing matched: the two dumps share no rows.</source>
        <translation>无匹配：两份转储没有共同的行。</translation>
    </message>
    <message>
        <source>Compare two dumps: File &gt; Compare Dumps…, or two runs in the Run Browser</source>
        <translation>比对两份转储：文件 &gt; 比对转储…，或在运行浏览器中选择两个运行</translation>
    </message>
    <message>
        <source>Bench: %1
Target: %2</source>
        <translation>标杆：%1
目标：%2</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>There is no finished comparison to export.</source>
        <translation>没有已完成的比对可导出。</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation>Markdown 文件 (*.md)</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>bench %1</source>
        <translation>标杆 %1</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>目标 %1</translation>
    </message>
    <message>
        <source>md5: bench %1, target %2</source>
        <translation>md5：标杆 %1，目标 %2</translation>
    </message>
    <message>
        <source>%1: no values to show</source>
        <translation>%1：没有可显示的数值</translation>
    </message>
    <message>
        <source>outputs fail while inputs pass</source>
        <translation>输出不通过而输入通过</translation>
    </message>
    <message>
        <source>a parameter differs</source>
        <translation>有参数不同</translation>
    </message>
    <message>
        <source>inputs already differ</source>
        <translation>输入已经不同</translation>
    </message>
    <message>
        <source>The numbers begin to part at %1 (a warning, not an error): %2</source>
        <translation>数值从 %1 开始出现差异（警告，而非错误）：%2</translation>
    </message>
    <message numerus="yes">
        <source>No divergence among the %n matched row(s); %1 rows are unmatched: a mapping file (File &gt; Compare Dumps…) pairs renamed modules and APIs.</source>
        <translation>
            <numerusform>%n 个已匹配的行中没有分歧；%1 行未匹配：映射文件（文件 &gt; 比对转储…）可配对重命名的模块和 API。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::widgets::accuracy::AccuracyTableModel</name>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>%1: difference %2, relative %3</source>
        <translation>%1：差值 %2，相对 %3</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>not compared</source>
        <translation>未比对</translation>
    </message>
    <message>
        <source>unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <source>introduced</source>
        <translation>引入</translation>
    </message>
    <message>
        <source>propagated</source>
        <translation>传播</translation>
    </message>
    <message>
        <source>Bench: %1
Target: %2</source>
        <translation>标杆：%1
目标：%2</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Dtypes</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Shapes</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>Max abs</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Max rel</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <source>Mean abs</source>
        <translation>平均绝对误差</translation>
    </message>
    <message>
        <source>RMSE</source>
        <translation>RMSE</translation>
    </message>
    <message>
        <source>Within 1e-3</source>
        <translation>1e-3 以内</translation>
    </message>
    <message>
        <source>Underflow</source>
        <translation>下溢</translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation>上溢</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::advisor::AdvisorPanel</name>
    <message>
        <source>1 error</source>
        <translation>1 个错误</translation>
    </message>
    <message numerus="yes">
        <source>%n errors</source>
        <translation>
            <numerusform>%n 个错误</numerusform>
        </translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation>1 个警告</translation>
    </message>
    <message numerus="yes">
        <source>%n warnings</source>
        <translation>
            <numerusform>%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <source>1 info</source>
        <translation>1 条提示</translation>
    </message>
    <message numerus="yes">
        <source>%n info</source>
        <translation>
            <numerusform>%n 条提示</numerusform>
        </translation>
    </message>
    <message>
        <source>Findings of the last evaluation and how many rules could run on the loaded data</source>
        <translation>上次评估得到的发现，以及有多少规则能在已加载的数据上运行</translation>
    </message>
    <message>
        <source>Save the findings as a Markdown or HTML report, or as JSON</source>
        <translation>将发现保存为 Markdown 或 HTML 报告，或保存为 JSON</translation>
    </message>
    <message>
        <source>Markdown report…</source>
        <translation>Markdown 报告…</translation>
    </message>
    <message>
        <source>A report to paste into an issue or a wiki</source>
        <translation>可粘贴到 issue 或 wiki 中的报告</translation>
    </message>
    <message>
        <source>HTML report…</source>
        <translation>HTML 报告…</translation>
    </message>
    <message>
        <source>A report to open in a browser or attach to mail</source>
        <translation>可在浏览器中打开或作为邮件附件的报告</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>The findings as JSON, as runlens advise --json writes them</source>
        <translation>以 JSON 格式导出发现，与 runlens advise --json 的输出相同</translation>
    </message>
    <message>
        <source>The rules are being evaluated on the loaded data; the findings below are those of the previous evaluation</source>
        <translation>正在已加载的数据上评估规则；下面列出的是上次评估的发现</translation>
    </message>
    <message>
        <source>Evaluating the rules…</source>
        <translation>正在评估规则…</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>What the rules found, with the numbers, advice and evidence</source>
        <translation>规则发现的问题，附带数值、建议和证据</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Every rule: switch it on or off, tune its threshold, see why it was not evaluated</source>
        <translation>所有规则：启用或停用、调整阈值、查看未评估的原因</translation>
    </message>
    <message>
        <source>Filter findings</source>
        <translation>筛选发现</translation>
    </message>
    <message>
        <source>Show only findings whose title, message, advice, rule or scope contain all these words</source>
        <translation>仅显示标题、消息、建议、规则或范围中包含所有这些词的发现</translation>
    </message>
    <message>
        <source>Show or hide errors</source>
        <translation>显示或隐藏错误</translation>
    </message>
    <message>
        <source>Show or hide warnings</source>
        <translation>显示或隐藏警告</translation>
    </message>
    <message>
        <source>Show or hide information</source>
        <translation>显示或隐藏提示</translation>
    </message>
    <message>
        <source>Double-click a finding to show its evidence</source>
        <translation>双击某个发现以显示其证据</translation>
    </message>
    <message>
        <source>Filter rules</source>
        <translation>筛选规则</translation>
    </message>
    <message>
        <source>Show only rules whose id, title, category, severity or status contain this text</source>
        <translation>仅显示 ID、标题、类别、严重程度或状态中包含此文本的规则</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Reset the selected rule to its recommended threshold and built-in state</source>
        <translation>将所选规则重置为推荐阈值和内置状态</translation>
    </message>
    <message>
        <source>Reset all</source>
        <translation>全部重置</translation>
    </message>
    <message>
        <source>Reset every rule to its recommended threshold and built-in state</source>
        <translation>将所有规则重置为推荐阈值和内置状态</translation>
    </message>
    <message>
        <source>Why the last threshold edit was not taken</source>
        <translation>上次修改阈值未被采纳的原因</translation>
    </message>
    <message>
        <source>(no problems)</source>
        <translation>（无问题）</translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>No evaluation yet</source>
        <translation>尚未评估</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n rules evaluated</source>
        <translation>
            <numerusform>已评估 %n 条规则中的 %1 条</numerusform>
        </translation>
    </message>
    <message>
        <source>No problems found</source>
        <translation>未发现问题</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Nothing to check yet. Open a run folder (File › Open) with TensorBoard or MindSpore summaries, profiler traces, memory files or tensor dumps: the Advisor checks them against its rules and lists what looks wrong, with the evidence.</source>
        <translation>暂无可检查的内容。请打开一个包含 TensorBoard 或 MindSpore 摘要、性能跟踪、内存文件或张量转储的运行文件夹（文件 › 打开）：诊断助手会根据其规则检查这些数据，并列出看起来有问题的地方及其证据。</translation>
    </message>
    <message>
        <source>No problems found — %1 rules evaluated, %2 not evaluated (missing data).</source>
        <translation>未发现问题 — 已评估 %1 条规则，%2 条未评估（缺少数据）。</translation>
    </message>
    <message>
        <source>The Rules tab says what each of those needs.</source>
        <translation>“规则”选项卡说明了每条规则需要哪些数据。</translation>
    </message>
    <message numerus="yes">
        <source>No finding matches the filter (%n hidden).</source>
        <translation>
            <numerusform>没有与筛选条件匹配的发现（%n 条已隐藏）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is outside the range of rule %2 (%3); the threshold stays %4.</source>
        <translation>%1 超出了规则 %2 的范围（%3）；阈值保持为 %4。</translation>
    </message>
    <message>
        <source>Reset %1 to recommended</source>
        <translation>将 %1 重置为推荐值</translation>
    </message>
    <message>
        <source>Edit threshold</source>
        <translation>编辑阈值</translation>
    </message>
    <message>
        <source>Reset all rules to recommended</source>
        <translation>将所有规则重置为推荐值</translation>
    </message>
    <message>
        <source>Cannot export the Advisor report to %1: use a .md, .html or .json file name.</source>
        <translation>无法将诊断助手报告导出到 %1：请使用 .md、.html 或 .json 文件名。</translation>
    </message>
    <message>
        <source>Cannot write the Advisor report to %1: %2</source>
        <translation>无法将诊断助手报告写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::advisor::FindingDetails</name>
    <message>
        <source>The selected finding: what was measured, where, and what to try</source>
        <translation>所选发现：测量了什么、在哪里，以及可以尝试的做法</translation>
    </message>
    <message>
        <source>Everything that shows this finding; double-click one to show it</source>
        <translation>体现此发现的所有证据；双击其中一项以显示它</translation>
    </message>
    <message>
        <source>Show evidence</source>
        <translation>显示证据</translation>
    </message>
    <message>
        <source>Select what shows this finding in its panel: the chart point, graph node, tensor at the step or timeline range</source>
        <translation>在相应面板中选中体现此发现的内容：图表点、计算图节点、该步的张量或时间线范围</translation>
    </message>
    <message>
        <source>Select a finding to see its numbers, advice and evidence.</source>
        <translation>选择一个发现以查看其数值、建议和证据。</translation>
    </message>
    <message>
        <source>This finding has no evidence to show</source>
        <translation>此发现没有可显示的证据</translation>
    </message>
    <message>
        <source>Show %1</source>
        <translation>显示%1</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>测量值</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Occurrences</source>
        <translation>出现次数</translation>
    </message>
    <message>
        <source>Advice:</source>
        <translation>建议：</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::advisor::FindingsModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s) of severity %1</source>
        <translation>
            <numerusform>%n 个严重程度为%1的发现</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n %1 finding(s) of severity %2</source>
        <translation>
            <numerusform>%n 个严重程度为%2的%1发现</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (×%2)</source>
        <translation>%1（×%2）</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>What the rule found, grouped by severity and category</source>
        <translation>规则发现的问题，按严重程度和类别分组</translation>
    </message>
    <message>
        <source>Run, rank, step, layer, tensor or operator the finding applies to</source>
        <translation>发现所涉及的运行、rank、步、层、张量或算子</translation>
    </message>
    <message>
        <source>The measured value</source>
        <translation>测量到的值</translation>
    </message>
    <message>
        <source>The rule&apos;s threshold the value was compared with</source>
        <translation>与该值比较的规则阈值</translation>
    </message>
    <message>
        <source>Comparison %1 (%2)</source>
        <translation>比对 %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s) of the dump comparison %1</source>
        <translation>
            <numerusform>转储比对 %1 的 %n 个发现</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::widgets::advisor::RulesModel</name>
    <message>
        <source>%1 to %2</source>
        <translation>%1 到 %2</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>at most %1</source>
        <translation>至多 %1</translation>
    </message>
    <message>
        <source>any number</source>
        <translation>任意数值</translation>
    </message>
    <message>
        <source>Disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>Not run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <source>Not evaluated</source>
        <translation>未评估</translation>
    </message>
    <message>
        <source>Not evaluated: %1</source>
        <translation>未评估：%1</translation>
    </message>
    <message>
        <source>Evaluated, no findings</source>
        <translation>已评估，无发现</translation>
    </message>
    <message>
        <source>Evaluated, 1 finding</source>
        <translation>已评估，1 个发现</translation>
    </message>
    <message numerus="yes">
        <source>Evaluated, %n findings</source>
        <translation>
            <numerusform>已评估，%n 个发现</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (from %2). Uncheck to switch the rule off.</source>
        <translation>%1（来自 %2）。取消勾选可停用该规则。</translation>
    </message>
    <message>
        <source>built-in rules</source>
        <translation>内置规则</translation>
    </message>
    <message>
        <source>%1
Advice: %2</source>
        <translation>%1
建议：%2</translation>
    </message>
    <message>
        <source>Findings when the measured value is %1 this. Double-click to change it (%2).</source>
        <translation>测量值%1此值时产生发现。双击可修改（%2）。</translation>
    </message>
    <message>
        <source>Changed from the recommended %1.</source>
        <translation>已从推荐值 %1 修改。</translation>
    </message>
    <message>
        <source>The threshold the rule ships with</source>
        <translation>规则自带的阈值</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Recommended</source>
        <translation>推荐值</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Rule id; the check box switches the rule on or off</source>
        <translation>规则 ID；复选框用于启用或停用该规则</translation>
    </message>
    <message>
        <source>What the rule looks for</source>
        <translation>规则检查的内容</translation>
    </message>
    <message>
        <source>Accuracy, performance, memory, distributed or data</source>
        <translation>准确性、性能、内存、分布式或数据</translation>
    </message>
    <message>
        <source>How serious a finding of this rule is</source>
        <translation>此规则的发现有多严重</translation>
    </message>
    <message>
        <source>The threshold in effect; double-click to change it within the rule&apos;s range</source>
        <translation>当前生效的阈值；双击可在规则的范围内修改</translation>
    </message>
    <message>
        <source>Whether the last evaluation could run the rule on the loaded data, and what it found</source>
        <translation>上次评估能否在已加载的数据上运行该规则，以及发现了什么</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::advisor::ThresholdDelegate</name>
    <message>
        <source>The threshold: %1, for example 0.05 or 1e-9</source>
        <translation>阈值：%1，例如 0.05 或 1e-9</translation>
    </message>
    <message>
        <source>“%1” is not a number; the threshold stays %2.</source>
        <translation>“%1”不是数值；阈值保持为 %2。</translation>
    </message>
    <message>
        <source>%1 is outside the rule&apos;s range (%2); the threshold stays %3.</source>
        <translation>%1 超出了规则的范围（%2）；阈值保持为 %3。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::audio::AudioCard</name>
    <message>
        <source>unknown rate</source>
        <translation>采样率未知</translation>
    </message>
    <message>
        <source>%1 kHz</source>
        <translation>%1 kHz</translation>
    </message>
    <message>
        <source>%1 Hz</source>
        <translation>%1 Hz</translation>
    </message>
    <message>
        <source>mono</source>
        <translation>单声道</translation>
    </message>
    <message>
        <source>stereo</source>
        <translation>立体声</translation>
    </message>
    <message numerus="yes">
        <source>%n channels</source>
        <translation>
            <numerusform>%n 个声道</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1, audio tag %2</source>
        <translation>运行 %1，音频标签 %2</translation>
    </message>
    <message>
        <source>Choose the step to show (only steps with audio are on the slider; arrow keys move one step)</source>
        <translation>选择要显示的步（滑块上只有含音频的步；方向键每次移动一步）</translation>
    </message>
    <message>
        <source>clip </source>
        <translation>片段 </translation>
    </message>
    <message>
        <source>This step holds several clips: choose the one to show</source>
        <translation>此步包含多个音频片段：选择要显示的一个</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Export WAV…</source>
        <translation>导出 WAV…</translation>
    </message>
    <message>
        <source>Save the shown clip as a WAV file, exactly as it was recorded</source>
        <translation>将显示的片段按记录时的原样保存为 WAV 文件</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> / %1</translation>
    </message>
    <message>
        <source>no audio</source>
        <translation>无音频</translation>
    </message>
    <message>
        <source>step %1 · %2/%3</source>
        <translation>第 %1 步 · %2/%3</translation>
    </message>
    <message>
        <source>step %1: no audio data was recorded</source>
        <translation>第 %1 步：未记录音频数据</translation>
    </message>
    <message>
        <source>step %1: the clip cannot be shown: %2</source>
        <translation>第 %1 步：无法显示该片段：%2</translation>
    </message>
    <message numerus="yes">
        <source>step %1: the clip is cut off; the %n frames present are shown</source>
        <translation>
            <numerusform>第 %1 步：片段被截断；显示现有的 %n 帧</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1-bit %2</source>
        <translation>%1 位 %2</translation>
    </message>
    <message>
        <source>float</source>
        <translation>浮点</translation>
    </message>
    <message>
        <source>PCM</source>
        <translation>PCM</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>No audio output was found on this machine: export the clip as WAV to listen to it elsewhere</source>
        <translation>本机未找到音频输出设备：请将片段导出为 WAV，在其他地方收听</translation>
    </message>
    <message>
        <source>This clip cannot be played: it could not be decoded</source>
        <translation>无法播放此片段：它无法被解码</translation>
    </message>
    <message>
        <source>Stop playing</source>
        <translation>停止播放</translation>
    </message>
    <message>
        <source>Play the clip (click the waveform to play from that point)</source>
        <translation>播放片段（点击波形可从该处开始播放）</translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for playback.</source>
        <translation>无法为播放创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1 for playback: %2</source>
        <translation>无法为播放写入 %1：%2</translation>
    </message>
    <message>
        <source>The clip cannot be played: %1</source>
        <translation>无法播放该片段：%1</translation>
    </message>
    <message>
        <source>There is no clip to export.</source>
        <translation>没有可导出的片段。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2. Check that the folder exists and is writable.</source>
        <translation>无法写入 %1：%2。请检查文件夹是否存在且可写。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::audio::AudioPanel</name>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No audio yet&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder with TensorBoard event files (&lt;tt&gt;add_audio&lt;/tt&gt;, &lt;tt&gt;tf.summary.audio&lt;/tt&gt;) or VisualDL logs that record audio; the clips appear here while they load.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;还没有音频&lt;/b&gt;&lt;/p&gt;&lt;p&gt;打开一个包含记录了音频的 TensorBoard 事件文件（&lt;tt&gt;add_audio&lt;/tt&gt;、&lt;tt&gt;tf.summary.audio&lt;/tt&gt;）或 VisualDL 日志的运行文件夹；音频片段会在加载时出现在这里。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::audio::AudioPlot</name>
    <message>
        <source>Waveform (top) and spectrogram (bottom) of the clip; click to play from that point</source>
        <translation>片段的波形（上）和频谱图（下）；点击可从该处开始播放</translation>
    </message>
    <message>
        <source>No clip to show</source>
        <translation>没有可显示的片段</translation>
    </message>
    <message>
        <source>L</source>
        <translation>左</translation>
    </message>
    <message>
        <source>R</source>
        <translation>右</translation>
    </message>
    <message>
        <source>ch %1</source>
        <translation>声道 %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::cluster::ClusterPanel</name>
    <message>
        <source>Group by stage</source>
        <translation>按阶段分组</translation>
    </message>
    <message>
        <source>Show the ranks under their pipeline stage, with the stage&apos;s means</source>
        <translation>将各卡显示在其所属的流水线阶段下，并显示该阶段的平均值</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Time per step (ms)</source>
        <translation>每步时间（ms）</translation>
    </message>
    <message>
        <source>Per-rank breakdown</source>
        <translation>各卡时间分解</translation>
    </message>
    <message>
        <source>Time per step by rank</source>
        <translation>各卡每步时间</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>Double-click to open this rank</source>
        <translation>双击以打开此卡</translation>
    </message>
    <message>
        <source>Link type:</source>
        <translation>链路类型：</translation>
    </message>
    <message>
        <source>The link type whose bandwidth the matrix shows</source>
        <translation>矩阵中显示带宽的链路类型</translation>
    </message>
    <message>
        <source>No link information (hccl_raw files) in this cluster</source>
        <translation>此集群中没有链路信息（hccl_raw 文件）</translation>
    </message>
    <message>
        <source>Destination rank</source>
        <translation>目标卡</translation>
    </message>
    <message>
        <source>Source rank</source>
        <translation>源卡</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽（GB/s）</translation>
    </message>
    <message>
        <source>Link bandwidth</source>
        <translation>链路带宽</translation>
    </message>
    <message>
        <source>%1 link bandwidth (GB/s)</source>
        <translation>%1 链路带宽（GB/s）</translation>
    </message>
    <message>
        <source>%1 → %2 (%3)
Bandwidth %4 GB/s
Size %5 MB
Time %6</source>
        <translation>%1 → %2（%3）
带宽 %4 GB/s
大小 %5 MB
时间 %6</translation>
    </message>
    <message>
        <source>%1 against the %2 mean</source>
        <translation>相对 %2 平均值 %1</translation>
    </message>
    <message>
        <source>Slow link</source>
        <translation>慢链路</translation>
    </message>
    <message>
        <source>Analysing the ranks…</source>
        <translation>正在分析各卡…</translation>
    </message>
    <message>
        <source>No cluster</source>
        <translation>没有集群</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n 张卡</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 ranks</source>
        <translation>%1 / %2 张卡</translation>
    </message>
    <message>
        <source>step interval</source>
        <translation>迭代间隙</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>迭代步时间</translation>
    </message>
    <message>
        <source>slowest rank %1: %2 %3 (%4 against the mean)</source>
        <translation>最慢的卡 %1：%2 %3（相对平均值 %4）</translation>
    </message>
    <message>
        <source>slowest rank %1 (within %2 % of the mean)</source>
        <translation>最慢的卡 %1（与平均值相差不超过 %2 %）</translation>
    </message>
    <message>
        <source>worst link %1 → %2 %3: %4 GB/s (%5)</source>
        <translation>最差链路 %1 → %2 %3：%4 GB/s（%5）</translation>
    </message>
    <message>
        <source>straggler: rank %1 in %2 of %3 steps</source>
        <translation>慢卡：卡 %1 在 %3 步中的 %2 步落后</translation>
    </message>
    <message>
        <source>Step interval</source>
        <translation>迭代间隙</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Receive</source>
        <translation>接收</translation>
    </message>
    <message>
        <source>Tail</source>
        <translation>拖尾</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>%1 link bandwidth</source>
        <translation>%1 链路带宽</translation>
    </message>
    <message>
        <source>Open rank %1</source>
        <translation>打开卡 %1</translation>
    </message>
    <message>
        <source>No cluster to show. Open a run whose profiler folder holds several ranks&apos; files (step_trace_raw, hccl_raw, ascend_cluster_analyse), the traces of several ranks together, or a folder of rank digests (runlens digest).</source>
        <translation>没有可显示的集群。请打开其性能分析文件夹中包含多张卡文件（step_trace_raw、hccl_raw、ascend_cluster_analyse）的运行，或同时打开多张卡的跟踪，或打开卡摘要文件夹（runlens digest）。</translation>
    </message>
    <message>
        <source>Filter ranks: 0-7, 16 or &gt;p95</source>
        <translation>筛选卡：0-7、16 或 &gt;p95</translation>
    </message>
    <message>
        <source>Ranks and ranges of ranks (0-7, 16-23), and &gt;pN for the ranks slower than N % of the ranks</source>
        <translation>卡号与卡号范围（0-7、16-23），以及 &gt;pN：比 N % 的卡更慢的卡</translation>
    </message>
    <message>
        <source>Nothing to export on this tab</source>
        <translation>此标签页没有可导出的内容</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>迭代步时间</translation>
    </message>
    <message>
        <source>Wait time (communication not overlapped + idle)</source>
        <translation>等待时间（未被掩盖的通信 + 空闲）</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <source>By rank</source>
        <translation>按卡号</translation>
    </message>
    <message>
        <source>By mean, slowest first</source>
        <translation>按均值，最慢的在前</translation>
    </message>
    <message>
        <source>Rank × step</source>
        <translation>卡 × 步</translation>
    </message>
    <message>
        <source>Slowest rank per step</source>
        <translation>每步最慢的卡</translation>
    </message>
    <message>
        <source>Communication groups</source>
        <translation>通信组</translation>
    </message>
    <message>
        <source>Slowest in steps</source>
        <translation>最慢的步数</translation>
    </message>
    <message>
        <source>Share of steps</source>
        <translation>占步数比例</translation>
    </message>
    <message>
        <source>Total over the step median</source>
        <translation>超出步中位数的总和</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Slowest rank</source>
        <translation>最慢的卡</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Step median</source>
        <translation>步中位数</translation>
    </message>
    <message>
        <source>Over the median</source>
        <translation>超出中位数</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>Waited for it</source>
        <translation>被等待时间</translation>
    </message>
    <message>
        <source>Slowest link</source>
        <translation>最慢链路</translation>
    </message>
    <message>
        <source>Link wait</source>
        <translation>链路等待</translation>
    </message>
    <message>
        <source>inferred %1</source>
        <translation>推断 %1</translation>
    </message>
    <message>
        <source>%1 waits for %2</source>
        <translation>%1 等待 %2</translation>
    </message>
    <message>
        <source>No process group in the traces: these ranks issued the same sequence of collectives</source>
        <translation>跟踪中没有进程组：这些卡发出了相同的集合通信序列</translation>
    </message>
    <message>
        <source>Process group %1, declared ranks %2</source>
        <translation>进程组 %1，声明的卡 %2</translation>
    </message>
    <message>
        <source>Groups are inferred from the collectives of rank digests or traces</source>
        <translation>通信组由卡摘要或跟踪中的集合通信推断得出</translation>
    </message>
    <message>
        <source>Not understood: write ranks (3), ranges (0-7) and &gt;pN (&gt;p95)</source>
        <translation>无法识别：请写卡号（3）、范围（0-7）和 &gt;pN（&gt;p95）</translation>
    </message>
    <message>
        <source>slowest step time: rank %1 in %2 of %3 steps</source>
        <translation>迭代步时间最慢：卡 %1（%3 步中的 %2 步）</translation>
    </message>
    <message>
        <source>%1-%2, every %3 ranks</source>
        <translation>%1-%2，每隔 %3 张</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>The heatmap exports as PNG or SVG, not %1</source>
        <translation>热力图只能导出为 PNG 或 SVG，不能导出为 %1</translation>
    </message>
    <message>
        <source>Export Heatmap as %1…</source>
        <translation>将热力图导出为 %1…</translation>
    </message>
    <message>
        <source>Export Slowest Ranks as CSV…</source>
        <translation>将最慢 rank 导出为 CSV…</translation>
    </message>
    <message>
        <source>Export Slowest Rank per Step as CSV…</source>
        <translation>将每步最慢 rank 导出为 CSV…</translation>
    </message>
    <message>
        <source>Export Communication Groups as CSV…</source>
        <translation>将通信组导出为 CSV…</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::cluster::ClusterRankModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>The slowest rank</source>
        <translation>最慢的卡</translation>
    </message>
    <message>
        <source>More than %1 % above the cluster mean</source>
        <translation>比集群平均值高 %1 % 以上</translation>
    </message>
    <message>
        <source>FLOPS more than %1 % below the cluster mean</source>
        <translation>FLOPS 比集群平均值低 %1 % 以上</translation>
    </message>
    <message numerus="yes">
        <source>Started the last collective latest in %n step(s)</source>
        <translation>
            <numerusform>在 %n 步中最晚开始最后一次集合通信</numerusform>
        </translation>
    </message>
    <message>
        <source>Device time: compute %1, non-compute %2, idle %3</source>
        <translation>设备时间：计算 %1，非计算 %2，空闲 %3</translation>
    </message>
    <message>
        <source>Double-click to open this rank</source>
        <translation>双击以打开此卡</translation>
    </message>
    <message>
        <source>%1%2 %</source>
        <translation>%1%2 %</translation>
    </message>
    <message numerus="yes">
        <source>Stage %1 (%n rank(s))</source>
        <translation>
            <numerusform>阶段 %1（%n 张卡）</numerusform>
        </translation>
    </message>
    <message>
        <source>Gap before the step&apos;s first operator (waiting for data)</source>
        <translation>迭代步第一个算子之前的间隙（等待数据）</translation>
    </message>
    <message>
        <source>Communication not hidden under computation</source>
        <translation>未被计算掩盖的通信</translation>
    </message>
    <message>
        <source>Communication hidden under computation</source>
        <translation>被计算掩盖的通信</translation>
    </message>
    <message>
        <source>Receive operators between pipeline stages</source>
        <translation>流水线阶段之间的接收算子</translation>
    </message>
    <message>
        <source>From the last backward operator to the end of the step</source>
        <translation>从最后一个反向算子到迭代步结束</translation>
    </message>
    <message>
        <source>Communication kernels&apos; time as a share of the step</source>
        <translation>通信内核时间占迭代步的比例</translation>
    </message>
    <message>
        <source>Share of communication time overlapped by computation kernels</source>
        <translation>被计算内核重叠的通信时间占比</translation>
    </message>
    <message>
        <source>The slow-rank figure against the cluster mean; more than +%1 % is flagged</source>
        <translation>慢卡指标相对集群平均值的偏差；超过 +%1 % 时标记</translation>
    </message>
    <message>
        <source>Steps in which this rank started the last collective latest</source>
        <translation>此卡最晚开始最后一次集合通信的步数</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>迭代步时间</translation>
    </message>
    <message>
        <source>Step interval</source>
        <translation>迭代间隙</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Receive</source>
        <translation>接收</translation>
    </message>
    <message>
        <source>Tail</source>
        <translation>拖尾</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Comm. share</source>
        <translation>通信占比</translation>
    </message>
    <message>
        <source>Comm. overlap</source>
        <translation>通信重叠</translation>
    </message>
    <message>
        <source>GFLOPS</source>
        <translation>GFLOPS</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>内存峰值</translation>
    </message>
    <message>
        <source>Off mean</source>
        <translation>偏离平均值</translation>
    </message>
    <message>
        <source>Straggler steps</source>
        <translation>慢卡步数</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::cluster::RankStepHeatmap</name>
    <message>
        <source>Wait time</source>
        <translation>等待时间</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>迭代步时间</translation>
    </message>
    <message>
        <source>Drawing…</source>
        <translation>正在绘制…</translation>
    </message>
    <message>
        <source>No per-step figures</source>
        <translation>没有每步数据</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Rank (slowest mean first)</source>
        <translation>卡（均值最慢的在前）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>%1 per rank and step (ms)</source>
        <translation>各卡各步的%1（ms）</translation>
    </message>
    <message>
        <source>Rank %1, step %2</source>
        <translation>卡 %1，第 %2 步</translation>
    </message>
    <message>
        <source>Step median: %1 (%2%3 ms%4)</source>
        <translation>步中位数：%1（%2%3 ms%4）</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::compare::CompareRunsPanel</name>
    <message>
        <source>Filter runs and values</source>
        <translation>筛选运行和值</translation>
    </message>
    <message>
        <source>Shows only the runs with this text in their name or in any of their values</source>
        <translation>只显示名称或任一值中包含此文本的运行</translation>
    </message>
    <message>
        <source>Columns…</source>
        <translation>列…</translation>
    </message>
    <message>
        <source>Choose the hyper-parameters and metrics the table shows</source>
        <translation>选择表格显示的超参数和指标</translation>
    </message>
    <message>
        <source>Chart metric</source>
        <translation>图表指标</translation>
    </message>
    <message>
        <source>The metric on the chart&apos;s last axis; it also colours the runs&apos; lines</source>
        <translation>图表最后一条轴上的指标；也用于为各运行的折线着色</translation>
    </message>
    <message>
        <source>Export the parallel-coordinates chart as PNG, SVG, PDF or CSV</source>
        <translation>将平行坐标图导出为 PNG、SVG、PDF 或 CSV</translation>
    </message>
    <message>
        <source>Select runs to show only them in every chart; right-click a header for its options</source>
        <translation>选中运行后，所有图表只显示这些运行；右键单击表头可查看其选项</translation>
    </message>
    <message>
        <source>No runs to compare yet.
Open a run folder with TensorBoard event files (scalars, hparams) or MindSpore summary and lineage files.</source>
        <translation>还没有可比较的运行。
请打开包含 TensorBoard 事件文件（标量、超参数）或 MindSpore 摘要文件和谱系文件的运行文件夹。</translation>
    </message>
    <message>
        <source>Show the Default Columns</source>
        <translation>显示默认列</translation>
    </message>
    <message>
        <source>Hyper-parameters</source>
        <translation>超参数</translation>
    </message>
    <message>
        <source>MindSpore lineage</source>
        <translation>MindSpore 谱系</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>No metric to compare: the runs have no scalar tags or evaluation metrics.</source>
        <translation>没有可比较的指标：这些运行没有标量标签或评估指标。</translation>
    </message>
    <message>
        <source>No hyper-parameters to compare: the runs have no hparams or lineage values in the shown columns.</source>
        <translation>没有可比较的超参数：这些运行在显示的列中没有超参数或谱系值。</translation>
    </message>
    <message>
        <source>No run passes the filter.</source>
        <translation>没有运行符合筛选条件。</translation>
    </message>
    <message>
        <source>Hide Column</source>
        <translation>隐藏列</translation>
    </message>
    <message>
        <source>Best value of %1</source>
        <translation>%1 的最佳值</translation>
    </message>
    <message>
        <source>By the Tag&apos;s Name (loss, error: lowest)</source>
        <translation>按标签名称判断（loss、error 取最低）</translation>
    </message>
    <message>
        <source>Lowest Value</source>
        <translation>最低值</translation>
    </message>
    <message>
        <source>Highest Value</source>
        <translation>最高值</translation>
    </message>
    <message>
        <source>Colour the Chart by This Column</source>
        <translation>按此列为图表着色</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::compare::ParallelCoordinatesChart</name>
    <message>
        <source>Runs by hyper-parameter, coloured by %1</source>
        <translation>各运行的超参数，按 %1 着色</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::distributions::DistributionChart</name>
    <message>
        <source>Fit to Data</source>
        <translation>适应数据</translation>
    </message>
    <message>
        <source>Show all steps (double-click the chart to do the same)</source>
        <translation>显示所有步（双击图表效果相同）</translation>
    </message>
    <message>
        <source>Copy Image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>The run &quot;%1&quot; has no histograms.</source>
        <translation>运行“%1”没有直方图。</translation>
    </message>
    <message>
        <source>The run &quot;%1&quot; has no histogram tag &quot;%2&quot;. Its histogram tags: %3.</source>
        <translation>运行“%1”没有直方图标签“%2”。它的直方图标签：%3。</translation>
    </message>
    <message>
        <source>Cannot export to %1: use a .png, .svg, .pdf or .csv file name.</source>
        <translation>无法导出到 %1：请使用 .png、.svg、.pdf 或 .csv 文件名。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::distributions::DistributionsPanel</name>
    <message>
        <source>Filter tags (regular expression)</source>
        <translation>筛选标签（正则表达式）</translation>
    </message>
    <message>
        <source>Show only the histogram tags that match this regular expression (case-insensitive)</source>
        <translation>只显示与此正则表达式匹配的直方图标签（不区分大小写）</translation>
    </message>
    <message>
        <source>Bands</source>
        <translation>百分位带</translation>
    </message>
    <message>
        <source>Percentile bands over steps (TensorBoard distributions): minimum, ±1.5σ, ±1σ, ±0.5σ of a normal distribution and maximum, with the median as a line</source>
        <translation>随步变化的百分位带（TensorBoard 分布）：最小值、正态分布的 ±1.5σ、±1σ、±0.5σ 处和最大值，中位数以折线表示</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移</translation>
    </message>
    <message>
        <source>One histogram per step, stacked down the step axis (TensorBoard offset histograms, MindInsight ridgeline); older steps are lighter</source>
        <translation>每步一个直方图，沿步轴依次堆叠（TensorBoard 偏移直方图、MindInsight 山脊图）；越早的步颜色越浅</translation>
    </message>
    <message>
        <source>Steps as</source>
        <translation>步轴显示为</translation>
    </message>
    <message>
        <source>Measure the step axis in training steps, time since the run&apos;s first histogram, or wall-clock time</source>
        <translation>步轴可按训练步数、自运行第一个直方图以来的时间或挂钟时间度量</translation>
    </message>
    <message numerus="yes">
        <source>Show or hide the distributions of %1 (%n run(s))</source>
        <translation>
            <numerusform>显示或隐藏 %1 的分布（%n 个运行）</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No distributions yet&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder whose TensorBoard event files or MindSpore summaries record histograms (&lt;code&gt;add_histogram&lt;/code&gt;, &lt;code&gt;tf.summary.histogram&lt;/code&gt;, &lt;code&gt;HistogramSummary&lt;/code&gt;); they appear here while they load.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;还没有分布&lt;/b&gt;&lt;/p&gt;&lt;p&gt;打开其 TensorBoard 事件文件或 MindSpore 摘要文件记录了直方图（&lt;code&gt;add_histogram&lt;/code&gt;、&lt;code&gt;tf.summary.histogram&lt;/code&gt;、&lt;code&gt;HistogramSummary&lt;/code&gt;）的运行文件夹；直方图会在加载时显示在这里。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;None of the selected runs has histograms&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Select other runs in Compare runs, or clear the selection to show every run.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;所选运行都没有直方图&lt;/b&gt;&lt;/p&gt;&lt;p&gt;在“比较运行”中选择其他运行，或清除选择以显示所有运行。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;No tag matches &quot;%1&quot;&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Change or clear the filter to see the other %n tag(s).&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;没有标签匹配“%1”&lt;/b&gt;&lt;/p&gt;&lt;p&gt;修改或清除筛选条件以查看其他 %n 个标签。&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 tags · %n run(s)</source>
        <translation>
            <numerusform>%1 / %2 个标签 · %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Invalid regular expression: %1 (at character %2). The previous filter stays in effect.</source>
        <translation>无效的正则表达式：%1（位于第 %2 个字符）。之前的筛选条件仍然有效。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::graph::GraphPanel</name>
    <message>
        <source>graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <source>Shapes</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Readable</source>
        <translation>易读</translation>
    </message>
    <message>
        <source>Search name, op type, attribute…</source>
        <translation>搜索名称、算子类型、属性…</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>向下</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>向右</translation>
    </message>
    <message>
        <source>Direction of the data flow</source>
        <translation>数据流方向</translation>
    </message>
    <message>
        <source>Show tensor shapes on edges</source>
        <translation>在边上显示张量形状</translation>
    </message>
    <message>
        <source>Hide tuple and monad plumbing ops and the gradient and optimizer scopes</source>
        <translation>隐藏元组与 monad 连接算子以及梯度和优化器作用域</translation>
    </message>
    <message>
        <source>Trace </source>
        <translation>追踪 </translation>
    </message>
    <message>
        <source>Highlight this many steps upstream and downstream of the selected node</source>
        <translation>高亮所选节点上游和下游的这么多步</translation>
    </message>
    <message>
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <source>Expand everything below the selected group</source>
        <translation>展开所选分组下的全部内容</translation>
    </message>
    <message>
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <source>Collapse everything below the selected group</source>
        <translation>折叠所选分组下的全部内容</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Fit the graph into the view (Space)</source>
        <translation>使计算图适应视图（空格键）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export the current picture</source>
        <translation>导出当前画面</translation>
    </message>
    <message>
        <source>Export as SVG…</source>
        <translation>导出为 SVG…</translation>
    </message>
    <message>
        <source>Export as PNG…</source>
        <translation>导出为 PNG…</translation>
    </message>
    <message numerus="yes">
        <source>%n ops, %1 shown; laid out %2 groups in %3 ms</source>
        <translation>
            <numerusform>%n 个算子，显示 %1 个；%3 毫秒内布局了 %2 个分组</numerusform>
        </translation>
    </message>
    <message>
        <source>Building the hierarchy…</source>
        <translation>正在构建层次结构…</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1</source>
        <translation>无效的正则表达式：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n matches</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Nothing to export to %1: the graph has not been laid out yet.</source>
        <translation>没有可导出到 %1 的内容：计算图尚未完成布局。</translation>
    </message>
    <message>
        <source>Cannot write %1: check that the folder exists and is writable.</source>
        <translation>无法写入 %1：请检查文件夹是否存在且可写。</translation>
    </message>
    <message>
        <source>Cannot export %1: use a .svg or .png file name.</source>
        <translation>无法导出 %1：请使用 .svg 或 .png 文件名。</translation>
    </message>
    <message>
        <source>Cannot export %1: the picture is too large.</source>
        <translation>无法导出 %1：画面太大。</translation>
    </message>
    <message>
        <source>Profiler time</source>
        <translation>性能分析时间</translation>
    </message>
    <message>
        <source>Colour the boxes by op type, by namespace or by the profiler time of a loaded trace</source>
        <translation>按算子类型、命名空间或已加载跟踪的性能分析时间为方框着色</translation>
    </message>
    <message>
        <source>Matching profiler ops to the graph…</source>
        <translation>正在将性能分析算子与计算图匹配…</translation>
    </message>
    <message>
        <source>Profiler time: %1</source>
        <translation>性能分析时间：%1</translation>
    </message>
    <message>
        <source>Pipeline stage</source>
        <translation>流水线阶段</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::graph::GraphView</name>
    <message>
        <source>series of %1</source>
        <translation>%1 序列</translation>
    </message>
    <message>
        <source>1 op</source>
        <translation>1 个算子</translation>
    </message>
    <message>
        <source>%1 ops</source>
        <translation>%1 个算子</translation>
    </message>
    <message>
        <source>Expanding everything below &quot;%1&quot; would show %2 items (limit %3); expand a smaller group.</source>
        <translation>展开“%1”下的全部内容将显示 %2 项（上限 %3）；请展开较小的分组。</translation>
    </message>
    <message>
        <source>No graph loaded</source>
        <translation>未加载计算图</translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <source>Empty graph</source>
        <translation>空计算图</translation>
    </message>
    <message>
        <source>Profiler time</source>
        <translation>性能分析时间</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>no matched ops</source>
        <translation>没有匹配的算子</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::graph::NodeDetailsWidget</name>
    <message>
        <source>Select a node in the Graph panel to see its details.</source>
        <translation>在计算图面板中选择一个节点以查看其详情。</translation>
    </message>
    <message>
        <source>Series</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>Section</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Children</source>
        <translation>子项</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… 以及另外 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>folded</source>
        <translation>已折叠</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>control</source>
        <translation>控制</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Weights and constants</source>
        <translation>权重和常量</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>none matched</source>
        <translation>没有匹配</translation>
    </message>
    <message>
        <source>%1 ms (%2% of the matched time)</source>
        <translation>%1 毫秒（占已匹配时间的 %2%）</translation>
    </message>
    <message>
        <source>Profiler time</source>
        <translation>性能分析时间</translation>
    </message>
    <message>
        <source>Tensors in dumps</source>
        <translation>转储中的张量</translation>
    </message>
    <message>
        <source>Step unknown</source>
        <translation>步数未知</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 API documentation</source>
        <translation>%1 API 文档</translation>
    </message>
    <message>
        <source>%1 at byte %2 (%3)</source>
        <translation>%1 的第 %2 字节处（%3）</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Show values</source>
        <translation>显示数值</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>(not plain elements of its type and shape)</source>
        <translation>（不是按其类型和形状排列的普通元素）</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::images::ImageCard</name>
    <message>
        <source>Run %1, image tag %2</source>
        <translation>运行 %1，图像标签 %2</translation>
    </message>
    <message>
        <source>Choose the step to show (only steps with images are on the slider; arrow keys move one step)</source>
        <translation>选择要显示的步（滑块上只有含图像的步；方向键每次移动一步）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Scale the images to fit the card</source>
        <translation>缩放图像以适应卡片</translation>
    </message>
    <message>
        <source>1:1</source>
        <translation>1:1</translation>
    </message>
    <message>
        <source>Show the images at their real size (one screen pixel per image pixel); scroll to see the rest</source>
        <translation>以实际大小显示图像（每个图像像素对应一个屏幕像素）；滚动查看其余部分</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+wheel over the image)</source>
        <translation>缩小（在图像上按 Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl+wheel over the image)</source>
        <translation>放大（在图像上按 Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Screen pixels per image pixel</source>
        <translation>每个图像像素对应的屏幕像素数</translation>
    </message>
    <message>
        <source>Auto contrast</source>
        <translation>自动对比度</translation>
    </message>
    <message>
        <source>Stretch the shown images&apos; values to the full range, so that dark or low-contrast pictures become readable (display only; hover still reports the recorded values)</source>
        <translation>将所显示图像的数值拉伸到完整范围，使偏暗或低对比度的图片清晰可辨（仅影响显示；悬停时仍报告记录的值）</translation>
    </message>
    <message>
        <source>PNG</source>
        <translation>PNG</translation>
    </message>
    <message>
        <source>Export the shown images as a PNG file, at their real size</source>
        <translation>将所显示的图像按实际大小导出为 PNG 文件</translation>
    </message>
    <message>
        <source>step %1, image %2: %3</source>
        <translation>第 %1 步，图像 %2：%3</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>step %1: no image data was recorded</source>
        <translation>第 %1 步：未记录图像数据</translation>
    </message>
    <message>
        <source>no images</source>
        <translation>没有图像</translation>
    </message>
    <message>
        <source>step %1 · %2/%3</source>
        <translation>第 %1 步 · %2/%3</translation>
    </message>
    <message>
        <source>decoding…</source>
        <translation>正在解码…</translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation>%1 × %2 像素</translation>
    </message>
    <message>
        <source>mixed sizes</source>
        <translation>尺寸不一</translation>
    </message>
    <message numerus="yes">
        <source>%n images · %1</source>
        <translation>
            <numerusform>%n 张图像 · %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export %1: step %2 of %3 has no decoded image to save.</source>
        <translation>无法导出 %1：%3 的第 %2 步没有可保存的已解码图像。</translation>
    </message>
    <message>
        <source>Cannot write %1: check that the folder exists and is writable.</source>
        <translation>无法写入 %1：请检查文件夹是否存在且可写。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::images::ImageView</name>
    <message>
        <source>image %1 · %2</source>
        <translation>图像 %1 · %2</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::images::ImagesPanel</name>
    <message>
        <source>Auto contrast</source>
        <translation>自动对比度</translation>
    </message>
    <message>
        <source>Stretch every shown image&apos;s values to the full range, for dark or low-contrast pictures (display only)</source>
        <translation>将每张所显示图像的数值拉伸到完整范围，适用于偏暗或低对比度的图片（仅影响显示）</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No images yet&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder with TensorBoard event files, MindSpore summaries or VisualDL logs that record images; they appear here while they load.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;还没有图像&lt;/b&gt;&lt;/p&gt;&lt;p&gt;打开包含记录了图像的 TensorBoard 事件文件、MindSpore 摘要文件或 VisualDL 日志的运行文件夹；图像会在加载时显示在这里。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::images::SummaryCardsPanel</name>
    <message>
        <source>Filter tags (regular expression)</source>
        <translation>筛选标签（正则表达式）</translation>
    </message>
    <message>
        <source>Show only tags matching this regular expression (case-insensitive)</source>
        <translation>只显示与此正则表达式匹配的标签（不区分大小写）</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1 (at character %2). The previous filter stays in effect.</source>
        <translation>无效的正则表达式：%1（位于第 %2 个字符）。之前的筛选条件仍然有效。</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;No tag matches &quot;%1&quot;&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Change or clear the filter to see the other %n tag(s).&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;没有标签匹配“%1”&lt;/b&gt;&lt;/p&gt;&lt;p&gt;修改或清除筛选条件以查看其他 %n 个标签。&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;None of the chosen runs has these tags&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Choose other runs in Compare runs, or clear the selection there to see every run.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;所选运行都没有这些标签&lt;/b&gt;&lt;/p&gt;&lt;p&gt;在“比较运行”中选择其他运行，或在那里清除选择以查看所有运行。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 of %2 tags</source>
        <translation>%1 / %2 个标签</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::images::TextCard</name>
    <message>
        <source>Run %1, text tag %2</source>
        <translation>运行 %1，文本标签 %2</translation>
    </message>
    <message>
        <source>Choose the step to show (only steps with a text are on the slider; arrow keys move one step)</source>
        <translation>选择要显示的步（滑块上只有含文本的步；方向键每次移动一步）</translation>
    </message>
    <message>
        <source>The text as recorded, rendered as Markdown</source>
        <translation>按 Markdown 渲染的记录文本</translation>
    </message>
    <message>
        <source>no text</source>
        <translation>没有文本</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s), newest first</source>
        <translation>
            <numerusform>共 %n 步，最新的在前</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 recorded texts kept</source>
        <translation>记录的 %2 条文本中保留了 %1 条</translation>
    </message>
    <message>
        <source>step %1 · %2/%3</source>
        <translation>第 %1 步 · %2/%3</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::images::TextPanel</name>
    <message>
        <source>All steps</source>
        <translation>所有步</translation>
    </message>
    <message>
        <source>List every step&apos;s text in each card, newest first, instead of one step chosen with the slider</source>
        <translation>在每张卡片中列出每一步的文本（最新的在前），而不是只显示用滑块选中的一步</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No texts yet&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder whose TensorBoard event files or VisualDL logs record text (for example with &lt;code&gt;add_text&lt;/code&gt;); it appears here while it loads.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;还没有文本&lt;/b&gt;&lt;/p&gt;&lt;p&gt;打开其 TensorBoard 事件文件或 VisualDL 日志记录了文本（例如使用 &lt;code&gt;add_text&lt;/code&gt;）的运行文件夹；文本会在加载时显示在这里。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::memory::MemoryChart</name>
    <message>
        <source>relative (unknown baseline)</source>
        <translation>相对值（基线未知）</translation>
    </message>
    <message>
        <source>Node (execution order)</source>
        <translation>节点（执行顺序）</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间（ms）</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>预留</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>活跃</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>Node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::memory::MemoryLifetimeView</name>
    <message>
        <source>All tensors</source>
        <translation>所有张量</translation>
    </message>
    <message>
        <source>Alive at node</source>
        <translation>在节点处存活</translation>
    </message>
    <message>
        <source>Node (execution order)</source>
        <translation>节点（执行顺序）</translation>
    </message>
    <message>
        <source>No tensor lifetimes in this memory profile</source>
        <translation>此内存性能数据中没有张量生命周期</translation>
    </message>
    <message>
        <source>%1 tensors, the %2 largest shown</source>
        <translation>%1 个张量，显示最大的 %2 个</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s)</source>
        <translation>
            <numerusform>%n 个张量</numerusform>
        </translation>
    </message>
    <message>
        <source>Size: %1</source>
        <translation>大小：%1</translation>
    </message>
    <message>
        <source>Shape: %1</source>
        <translation>形状：%1</translation>
    </message>
    <message>
        <source>Data type: %1</source>
        <translation>数据类型：%1</translation>
    </message>
    <message>
        <source>Type: %1</source>
        <translation>类型：%1</translation>
    </message>
    <message>
        <source>Format: %1</source>
        <translation>格式：%1</translation>
    </message>
    <message>
        <source>Alive: nodes %1 to %2</source>
        <translation>存活：节点 %1 到 %2</translation>
    </message>
    <message>
        <source>Created by: %1</source>
        <translation>创建者：%1</translation>
    </message>
    <message>
        <source>Tensor lifetimes</source>
        <translation>张量生命周期</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::memory::MemoryPanel</name>
    <message>
        <source>The device whose memory is shown</source>
        <translation>显示其内存的设备</translation>
    </message>
    <message>
        <source>Go to peak</source>
        <translation>转到峰值</translation>
    </message>
    <message>
        <source>Show the moment of the peak and the operator running then in the timeline</source>
        <translation>在时间线中显示峰值时刻及当时运行的算子</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Tensor lifetimes</source>
        <translation>张量生命周期</translation>
    </message>
    <message>
        <source>Include children</source>
        <translation>包含子算子</translation>
    </message>
    <message>
        <source>Count the allocations of the ops an op calls as its own</source>
        <translation>将算子所调用算子的分配计为其自身的分配</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Memory: %1</source>
        <translation>内存：%1</translation>
    </message>
    <message>
        <source>No memory data. Open a PyTorch profiler trace recorded with profile_memory=True, a memory timeline (export_memory_timeline, *.raw.json.gz), or MindSpore memory files (memory_usage_*.json, memory_record.csv, operator_memory_*.csv).</source>
        <translation>没有内存数据。请打开使用 profile_memory=True 录制的 PyTorch 性能跟踪、内存时间线（export_memory_timeline，*.raw.json.gz）或 MindSpore 内存文件（memory_usage_*.json、memory_record.csv、operator_memory_*.csv）。</translation>
    </message>
    <message>
        <source>All graphs</source>
        <translation>所有计算图</translation>
    </message>
    <message>
        <source>All devices over time</source>
        <translation>所有设备随时间变化</translation>
    </message>
    <message>
        <source>All devices</source>
        <translation>所有设备</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Peak %1 at %2</source>
        <translation>峰值 %1，位于 %2</translation>
    </message>
    <message>
        <source>(in %1)</source>
        <translation>（在 %1 中）</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n out-of-memory report(s)</source>
        <translation>
            <numerusform>%n 条内存不足报告</numerusform>
        </translation>
    </message>
    <message>
        <source>relative (unknown baseline)</source>
        <translation>相对值（基线未知）</translation>
    </message>
    <message>
        <source>Allocations in the selected range</source>
        <translation>所选范围内的分配</translation>
    </message>
    <message>
        <source>Allocations of the whole trace</source>
        <translation>整个跟踪的分配</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>Clear selection</source>
        <translation>清除选择</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::operators::OperatorsPanel</name>
    <message>
        <source>Host operators</source>
        <translation>主机侧算子</translation>
    </message>
    <message>
        <source>Device operators</source>
        <translation>设备侧算子</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Group by name</source>
        <translation>按名称分组</translation>
    </message>
    <message>
        <source>Group by name and input shapes</source>
        <translation>按名称和输入形状分组</translation>
    </message>
    <message>
        <source>Filter by name</source>
        <translation>按名称筛选</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Write the table as shown (filtered and sorted) to a CSV file</source>
        <translation>将当前显示的表格（已筛选和排序）写入 CSV 文件</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>No profiler trace</source>
        <translation>没有性能跟踪</translation>
    </message>
    <message numerus="yes">
        <source>%n kernel(s)</source>
        <translation>
            <numerusform>%n 个内核</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n operator(s)</source>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Show in timeline</source>
        <translation>在时间线中显示</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Host: time on the CPU; Device: time of the kernels each operator launched; MindSpore: the profiler folder&apos;s operator types and operators</source>
        <translation>主机：CPU 上的耗时；设备：每个算子启动的核函数的耗时；MindSpore：性能分析文件夹中的算子类型和算子</translation>
    </message>
    <message>
        <source> (MindSpore, rank %1)</source>
        <translation> （MindSpore，rank %1）</translation>
    </message>
    <message>
        <source> (MindSpore)</source>
        <translation> （MindSpore）</translation>
    </message>
    <message>
        <source>Operator types</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message numerus="yes">
        <source>%n operator type(s)</source>
        <translation>
            <numerusform>%n 种算子类型</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::widgets::overview::OverviewPanel</name>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>微秒</translation>
    </message>
    <message>
        <source>The rank (device) shown</source>
        <translation>显示的卡（设备）</translation>
    </message>
    <message>
        <source>No profiler data. Open a run folder with a MindSpore profiler folder (profiler/ or *_ascend_ms/ASCEND_PROFILER_OUTPUT) or a PyTorch profiler trace to see its steps and top operators here.</source>
        <translation>没有性能分析数据。请打开包含 MindSpore 性能分析文件夹（profiler/ 或 *_ascend_ms/ASCEND_PROFILER_OUTPUT）的运行文件夹或 PyTorch 性能跟踪，以在此查看其迭代步和耗时最多的算子。</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Step time breakdown</source>
        <translation>迭代步时间分解</translation>
    </message>
    <message>
        <source>Top operator types</source>
        <translation>耗时最多的算子类型</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Trace %1</source>
        <translation>跟踪 %1</translation>
    </message>
    <message>
        <source>Time (%1)</source>
        <translation>时间（%1）</translation>
    </message>
    <message>
        <source>Avg</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Total time (%1)</source>
        <translation>总时间（%1）</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>MindSpore %1</source>
        <translation>MindSpore %1</translation>
    </message>
    <message>
        <source>CANN %1</source>
        <translation>CANN %1</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n 张卡</numerusform>
        </translation>
    </message>
    <message>
        <source>PyTorch profiler trace</source>
        <translation>PyTorch 性能跟踪</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s), average %1</source>
        <translation>
            <numerusform>%n 步，平均 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 (%3 %)</source>
        <translation>%1 %2（%3 %）</translation>
    </message>
    <message>
        <source>operators %1</source>
        <translation>算子 %1</translation>
    </message>
    <message>
        <source>Time (µs)</source>
        <translation>时间（µs）</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Total time (µs)</source>
        <translation>总时间（µs）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message numerus="yes">
        <source>Average of %n step(s)</source>
        <translation>
            <numerusform>%n 步的平均值</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 in %3 call(s), %4 per call, %5 % of the operator time</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2，共 %3 次调用，每次 %4，占算子时间的 %5 %</translation>
    </message>
    <message>
        <source>The run whose profiler output is shown</source>
        <translation>显示其性能分析输出的运行</translation>
    </message>
    <message>
        <source>Steps %1–%2</source>
        <translation>第 %1–%2 步</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>均值 %1</translation>
    </message>
    <message numerus="yes">
        <source>Each bar: the mean of %n step(s)</source>
        <translation>
            <numerusform>每条柱：%n 步的均值</numerusform>
        </translation>
    </message>
    <message>
        <source>Slowest: step %1, %2</source>
        <translation>最慢：第 %1 步，%2</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::pipeline::DataPipelinePanel</name>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>I/O wait</source>
        <translation>I/O 等待</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>The rank whose data pipeline is shown</source>
        <translation>显示其数据处理流水线的卡</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>Host and device queues</source>
        <translation>主机与设备队列</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Queue size (batches)</source>
        <translation>队列大小（批）</translation>
    </message>
    <message>
        <source>CPU utilisation</source>
        <translation>CPU 利用率</translation>
    </message>
    <message>
        <source>Whole machine</source>
        <translation>整机</translation>
    </message>
    <message>
        <source>Training process</source>
        <translation>训练进程</translation>
    </message>
    <message>
        <source>Per pipeline op</source>
        <translation>按流水线算子</translation>
    </message>
    <message>
        <source>CPU (%)</source>
        <translation>CPU（%）</translation>
    </message>
    <message>
        <source>Queue chart</source>
        <translation>队列图表</translation>
    </message>
    <message>
        <source>CPU chart</source>
        <translation>CPU 图表</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>Rank ?</source>
        <translation>卡 ?</translation>
    </message>
    <message>
        <source>The data pipeline files of this rank hold no data.</source>
        <translation>此卡的数据处理流水线文件中没有数据。</translation>
    </message>
    <message>
        <source>No data pipeline profile. Profile a MindSpore run with the Profiler&apos;s data processing analysis on (data_process=True) and open its profiler folder.</source>
        <translation>没有数据处理流水线的性能数据。请在开启 Profiler 数据处理分析（data_process=True）的情况下对 MindSpore 运行进行性能分析，然后打开其性能分析文件夹。</translation>
    </message>
    <message>
        <source>Rank %1: no data</source>
        <translation>卡 %1：没有数据</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s)</source>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source>host queue empty in %1 of steps</source>
        <translation>主机队列在 %1 的迭代步中为空</translation>
    </message>
    <message>
        <source>CPU busy %1</source>
        <translation>CPU 繁忙 %1</translation>
    </message>
    <message>
        <source>bottleneck %1</source>
        <translation>瓶颈 %1</translation>
    </message>
    <message>
        <source>Possible bottleneck: %1</source>
        <translation>可能的瓶颈：%1</translation>
    </message>
    <message>
        <source>Every queue inside the pipeline is at least 80% full: the pipeline keeps up.</source>
        <translation>流水线中每个队列都至少 80% 满：流水线跟得上。</translation>
    </message>
    <message>
        <source>The pipeline files have no queue samples, so bottlenecks cannot be judged.</source>
        <translation>流水线文件中没有队列采样，因此无法判断瓶颈。</translation>
    </message>
    <message>
        <source>The machine&apos;s CPUs were %1 busy on average (more than %2%), which may slow data processing.</source>
        <translation>机器的 CPU 平均繁忙 %1（超过 %2%），可能会拖慢数据处理。</translation>
    </message>
    <message>
        <source>MindSpore suggests: %1</source>
        <translation>MindSpore 建议：%1</translation>
    </message>
    <message>
        <source>Iterator queue size</source>
        <translation>迭代器队列大小</translation>
    </message>
    <message>
        <source>Host queue size</source>
        <translation>主机队列大小</translation>
    </message>
    <message>
        <source>Host queue capacity</source>
        <translation>主机队列容量</translation>
    </message>
    <message>
        <source>Empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>满</translation>
    </message>
    <message numerus="yes">
        <source>host: empty %1, full %2 of %n step(s)</source>
        <translation>
            <numerusform>主机：%n 步中空 %1，满 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Device queue size</source>
        <translation>设备队列大小</translation>
    </message>
    <message>
        <source>device: empty in %1 of %2 GetNext</source>
        <translation>设备：%2 次 GetNext 中有 %1 次为空</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>时间（s）</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>采样</translation>
    </message>
    <message numerus="yes">
        <source>%n processor(s)</source>
        <translation>
            <numerusform>%n 个处理器</numerusform>
        </translation>
    </message>
    <message>
        <source>op %1</source>
        <translation>算子 %1</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::pipeline::PipelineGraphView</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>op %1</source>
        <translation>算子 %1</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作线程</translation>
    </message>
    <message>
        <source>Output queue usage</source>
        <translation>输出队列使用率</translation>
    </message>
    <message>
        <source>Average queue size</source>
        <translation>平均队列大小</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Queue empty</source>
        <translation>队列为空</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>CPU (user + sys)</source>
        <translation>CPU（用户 + 系统）</translation>
    </message>
    <message>
        <source>Possible bottleneck</source>
        <translation>可能的瓶颈</translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s)</source>
        <translation>
            <numerusform>%n 个工作线程</numerusform>
        </translation>
    </message>
    <message>
        <source>workers n/a</source>
        <translation>工作线程数不适用</translation>
    </message>
    <message>
        <source>queue %1</source>
        <translation>队列 %1</translation>
    </message>
    <message>
        <source>Iterator</source>
        <translation>迭代器</translation>
    </message>
    <message>
        <source>Device queue</source>
        <translation>设备队列</translation>
    </message>
    <message>
        <source>empty %1</source>
        <translation>空 %1</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::prcurves::PrCurveChart</name>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>The step whose curves are shown; the latest step follows new data</source>
        <translation>显示其曲线的步；选中最新一步时会跟随新数据</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1（第 %2 步）</translation>
    </message>
    <message>
        <source>no step</source>
        <translation>没有步</translation>
    </message>
    <message>
        <source>step %1 (%2/%3)</source>
        <translation>第 %1 步（%2/%3）</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>FP</source>
        <translation>FP</translation>
    </message>
    <message>
        <source>TN</source>
        <translation>TN</translation>
    </message>
    <message>
        <source>FN</source>
        <translation>FN</translation>
    </message>
    <message>
        <source>Copy Image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>False positive rate</source>
        <translation>假阳性率</translation>
    </message>
    <message>
        <source>True positive rate</source>
        <translation>真阳性率</translation>
    </message>
    <message>
        <source>%1 (step %2) · AUC %3</source>
        <translation>%1（步 %2）· AUC %3</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::prcurves::PrCurvesPanel</name>
    <message>
        <source>Filter tags (regular expression)</source>
        <translation>筛选标签（正则表达式）</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1</source>
        <translation>无效的正则表达式：%1</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;No tag matches &quot;%1&quot;&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Change or clear the filter to see the other %n tag(s).&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;没有标签匹配“%1”&lt;/b&gt;&lt;/p&gt;&lt;p&gt;修改或清除筛选条件以查看其他 %n 个标签。&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 tags · %n run(s)</source>
        <translation>
            <numerusform>%1 / %2 个标签 · %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Draw the PR curve tags as precision over recall, or as ROC curves (true-positive over false-positive rate) from the same counts; ROC-only tags are always ROC curves</source>
        <translation>将 PR 曲线标签绘制为精确率-召回率曲线，或由相同计数绘制为 ROC 曲线（真阳性率对假阳性率）；仅含 ROC 的标签始终显示为 ROC 曲线</translation>
    </message>
    <message>
        <source>Precision-recall</source>
        <translation>精确率-召回率</translation>
    </message>
    <message>
        <source>ROC</source>
        <translation>ROC</translation>
    </message>
    <message>
        <source>Show only the curve tags that match this regular expression (case-insensitive)</source>
        <translation>只显示匹配此正则表达式的曲线标签（不区分大小写）</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No PR or ROC curves&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder to see its precision-recall and ROC curves.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;没有 PR 或 ROC 曲线&lt;/b&gt;&lt;/p&gt;&lt;p&gt;打开一个运行文件夹以查看其精确率-召回率曲线和 ROC 曲线。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No PR or ROC curves yet&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder with TensorBoard event files that hold PR curves (PyTorch &lt;code&gt;add_pr_curve&lt;/code&gt;, TensorFlow &lt;code&gt;pr_curve&lt;/code&gt; summaries) or VisualDL logs with PR or ROC curves; they appear here while they load.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;暂无 PR 或 ROC 曲线&lt;/b&gt;&lt;/p&gt;&lt;p&gt;打开包含 PR 曲线的 TensorBoard 事件文件（PyTorch &lt;code&gt;add_pr_curve&lt;/code&gt;、TensorFlow &lt;code&gt;pr_curve&lt;/code&gt; 摘要）或包含 PR、ROC 曲线的 VisualDL 日志的运行文件夹；曲线会在加载时显示在这里。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;The selected runs have no PR or ROC curves&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Select other runs in Compare runs, or clear the selection to see all %n run(s) with curves.&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;所选运行没有 PR 或 ROC 曲线&lt;/b&gt;&lt;/p&gt;&lt;p&gt;在“比较运行”中选择其他运行，或清除选择以查看全部 %n 个含曲线的运行。&lt;/p&gt;</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::widgets::projector::ProjectorPanel</name>
    <message>
        <source>The embedding set shown</source>
        <translation>显示的嵌入集</translation>
    </message>
    <message>
        <source>Principal component on the horizontal axis</source>
        <translation>横轴上的主成分</translation>
    </message>
    <message>
        <source>Principal component on the vertical axis</source>
        <translation>纵轴上的主成分</translation>
    </message>
    <message>
        <source>Metadata column that colours the points</source>
        <translation>为点着色的元数据列</translation>
    </message>
    <message>
        <source>Metadata column shown beside the point under the mouse and in the neighbour list</source>
        <translation>在鼠标所指的点旁和近邻列表中显示的元数据列</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Write the scatter as a PNG image</source>
        <translation>将散点图写为 PNG 图像</translation>
    </message>
    <message>
        <source>Embedding:</source>
        <translation>嵌入：</translation>
    </message>
    <message>
        <source>X:</source>
        <translation>X：</translation>
    </message>
    <message>
        <source>Y:</source>
        <translation>Y：</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <source>Label by:</source>
        <translation>标签依据：</translation>
    </message>
    <message>
        <source>Search metadata (regular expression)</source>
        <translation>搜索元数据（正则表达式）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Click a point to list its nearest neighbours.</source>
        <translation>点击一个点以列出其最近邻。</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>Euclidean</source>
        <translation>欧氏</translation>
    </message>
    <message>
        <source>Distance in the original space</source>
        <translation>原始空间中的距离</translation>
    </message>
    <message>
        <source>Number of neighbours</source>
        <translation>近邻数量</translation>
    </message>
    <message>
        <source>Neighbours:</source>
        <translation>近邻：</translation>
    </message>
    <message>
        <source>%1 (%2 × %3)</source>
        <translation>%1（%2 × %3）</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>(index)</source>
        <translation>（索引）</translation>
    </message>
    <message>
        <source>Computing principal components of %1 points…</source>
        <translation>正在计算 %1 个点的主成分…</translation>
    </message>
    <message>
        <source>Principal components cancelled.</source>
        <translation>主成分计算已取消。</translation>
    </message>
    <message>
        <source>The principal components could not be computed.</source>
        <translation>无法计算主成分。</translation>
    </message>
    <message>
        <source>PC%1 (%2%)</source>
        <translation>PC%1（%2%）</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>%1: dark violet %2 … yellow %3</source>
        <translation>%1：深紫 %2 … 黄 %3</translation>
    </message>
    <message>
        <source>%1 points × %2 dimensions</source>
        <translation>%1 个点 × %2 维</translation>
    </message>
    <message>
        <source>invalid regular expression: %1</source>
        <translation>无效的正则表达式：%1</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Nearest to %1 (#%2), in the original space:</source>
        <translation>原始空间中与 %1（#%2）最近的点：</translation>
    </message>
    <message>
        <source>%1 (#%2) — %3</source>
        <translation>%1（#%2）— %3</translation>
    </message>
    <message>
        <source>PC%1: %2%</source>
        <translation>PC%1：%2%</translation>
    </message>
    <message>
        <source>&lt;b&gt;Explained variance&lt;/b&gt; (top %1: %2%)&lt;br&gt;%3</source>
        <translation>&lt;b&gt;解释方差&lt;/b&gt;（前 %1 个：%2%）&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>No embeddings in this folder. Open a folder holding a projector_config.pbtxt (TensorBoard&apos;s add_embedding writes one) or a VisualDL log with add_embeddings values.</source>
        <translation>此文件夹中没有嵌入。请打开包含 projector_config.pbtxt 的文件夹（TensorBoard 的 add_embedding 会写入该文件），或包含 add_embeddings 值的 VisualDL 日志。</translation>
    </message>
    <message>
        <source>t-SNE cannot run with these settings.</source>
        <translation>t-SNE 无法以这些设置运行。</translation>
    </message>
    <message>
        <source>t-SNE needs points with at least one dimension.</source>
        <translation>t-SNE 需要至少有一个维度的点。</translation>
    </message>
    <message>
        <source>t-SNE cannot run: the embeddings contain NaN or infinite values.</source>
        <translation>t-SNE 无法运行：嵌入中含有 NaN 或无穷值。</translation>
    </message>
    <message>
        <source>t-SNE cancelled.</source>
        <translation>t-SNE 已取消。</translation>
    </message>
    <message>
        <source>PCA</source>
        <translation>PCA</translation>
    </message>
    <message>
        <source>t-SNE</source>
        <translation>t-SNE</translation>
    </message>
    <message>
        <source>How the points are laid out in two dimensions</source>
        <translation>点在二维中的布局方式</translation>
    </message>
    <message>
        <source>Effective number of neighbours each point keeps close (lowered for small sets)</source>
        <translation>每个点保持靠近的有效近邻数（点数较少时会降低）</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Step size of the optimisation; &quot;auto&quot; (0) picks one from the number of points</source>
        <translation>优化的步长；“自动”（0）根据点数选取</translation>
    </message>
    <message>
        <source>Total iterations of the run</source>
        <translation>本次运行的总迭代次数</translation>
    </message>
    <message>
        <source>Seed of the initial layout: the same seed gives the same picture</source>
        <translation>初始布局的随机种子：相同的种子得到相同的图</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Start t-SNE on the points shown, or stop it</source>
        <translation>对显示的点启动 t-SNE，或停止它</translation>
    </message>
    <message>
        <source>Perplexity:</source>
        <translation>困惑度：</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Iterations:</source>
        <translation>迭代次数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>Isolate</source>
        <translation>隔离</translation>
    </message>
    <message>
        <source>Show only the search matches (or the selected point and its neighbours) and lay them out again</source>
        <translation>只显示搜索匹配项（或选中的点及其近邻），并重新布局</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>Show every point of the embedding again</source>
        <translation>重新显示嵌入中的所有点</translation>
    </message>
    <message>
        <source>t-SNE: reducing to %1 principal components first, then computing affinities…</source>
        <translation>t-SNE：先降到 %1 个主成分，再计算相似度…</translation>
    </message>
    <message>
        <source>t-SNE: computing affinities…</source>
        <translation>t-SNE：正在计算相似度…</translation>
    </message>
    <message>
        <source>t-SNE cannot run: the principal components failed.</source>
        <translation>t-SNE 无法运行：主成分计算失败。</translation>
    </message>
    <message>
        <source>perplexity %1</source>
        <translation>困惑度 %1</translation>
    </message>
    <message>
        <source>(lowered: few points)</source>
        <translation>（已降低：点数较少）</translation>
    </message>
    <message>
        <source>learning rate %1</source>
        <translation>学习率 %1</translation>
    </message>
    <message>
        <source>on the top %1 principal components</source>
        <translation>基于前 %1 个主成分</translation>
    </message>
    <message>
        <source>iteration %1 / %2, KL divergence %3</source>
        <translation>迭代 %1 / %2，KL 散度 %3</translation>
    </message>
    <message>
        <source>t-SNE finished: %1 (%2)</source>
        <translation>t-SNE 已完成：%1（%2）</translation>
    </message>
    <message>
        <source>t-SNE stopped at %1 (%2)</source>
        <translation>t-SNE 停止于 %1（%2）</translation>
    </message>
    <message>
        <source>t-SNE running: %1 (%2)</source>
        <translation>t-SNE 运行中：%1（%2）</translation>
    </message>
    <message>
        <source>t-SNE stopped at iteration %1 / %2</source>
        <translation>t-SNE 停止于迭代 %1 / %2</translation>
    </message>
    <message>
        <source>t-SNE 1</source>
        <translation>t-SNE 1</translation>
    </message>
    <message>
        <source>t-SNE 2</source>
        <translation>t-SNE 2</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>isolated from %1</source>
        <translation>从 %1 个点中隔离</translation>
    </message>
    <message>
        <source>&lt;b&gt;t-SNE&lt;/b&gt;&lt;br&gt;Iteration: %1 / %2&lt;br&gt;KL divergence: %3</source>
        <translation>&lt;b&gt;t-SNE&lt;/b&gt;&lt;br&gt;迭代：%1 / %2&lt;br&gt;KL 散度：%3</translation>
    </message>
    <message>
        <source>Principal component on the depth axis of the 3-D view</source>
        <translation>3-D 视图深度轴上的主成分</translation>
    </message>
    <message>
        <source>2-D</source>
        <translation>2-D</translation>
    </message>
    <message>
        <source>3-D</source>
        <translation>3-D</translation>
    </message>
    <message>
        <source>Show the points in two or three dimensions: three principal components, or t-SNE run with three output dimensions</source>
        <translation>以二维或三维显示各点：三个主成分，或以三个输出维度运行的 t-SNE</translation>
    </message>
    <message>
        <source>Sprites</source>
        <translation>缩略图</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <source>Back to the starting rotation, zoom and position of the 3-D view</source>
        <translation>将 3-D 视图恢复到初始的旋转、缩放和位置</translation>
    </message>
    <message>
        <source>Z:</source>
        <translation>Z：</translation>
    </message>
    <message>
        <source>This embedding has no sprite image</source>
        <translation>此嵌入没有缩略图拼图（sprite）</translation>
    </message>
    <message>
        <source>Draw each point as its image from the sprite sheet</source>
        <translation>将每个点绘制为拼图（sprite）中对应的图像</translation>
    </message>
    <message>
        <source>t-SNE 3</source>
        <translation>t-SNE 3</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::projector::ProjectorScatter3d</name>
    <message>
        <source>Drag: rotate · Shift-drag: pan · Wheel: zoom · Double-click: reset</source>
        <translation>拖动：旋转 · Shift+拖动：平移 · 滚轮：缩放 · 双击：重置</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::runbrowser::RunBrowserWidget</name>
    <message>
        <source>Filter files…</source>
        <translation>筛选文件…</translation>
    </message>
    <message>
        <source>No run folder open. Use File &gt; Open Run Folder or drop a folder here.</source>
        <translation>尚未打开运行文件夹。请使用“文件 &gt; 打开运行文件夹”，或将文件夹拖放到这里。</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s), </source>
        <translation>
            <numerusform>%n 个运行，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1</source>
        <translation>
            <numerusform>%n 个文件，%1</numerusform>
        </translation>
    </message>
    <message>
        <source>The folder holds more entries than were scanned.</source>
        <translation>该文件夹中的条目多于已扫描的数量。</translation>
    </message>
    <message>
        <source>Compare Dumps</source>
        <translation>比对转储</translation>
    </message>
    <message>
        <source>Select two runs or dump folders to compare them op by op</source>
        <translation>选择两个运行或转储文件夹以逐算子比对</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::scalars::ChartSection</name>
    <message>
        <source>Show or hide the charts of %1</source>
        <translation>显示或隐藏 %1 的图表</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::scalars::RunLegendModel</name>
    <message numerus="yes">
        <source>%n scalar point(s)</source>
        <translation>
            <numerusform>%n 个标量数据点</numerusform>
        </translation>
    </message>
    <message>
        <source>Shown in every chart</source>
        <translation>在所有图表中显示</translation>
    </message>
    <message>
        <source>Hidden in every chart</source>
        <translation>在所有图表中隐藏</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::scalars::ScalarChart</name>
    <message>
        <source>Ctrl</source>
        <translation>Ctrl</translation>
    </message>
    <message>
        <source>Alt</source>
        <translation>Alt</translation>
    </message>
    <message>
        <source>Shift</source>
        <translation>Shift</translation>
    </message>
    <message>
        <source>Meta</source>
        <translation>Meta</translation>
    </message>
    <message>
        <source>Fit to Data</source>
        <translation>适应数据</translation>
    </message>
    <message>
        <source>Show all data (double-click the chart to do the same)</source>
        <translation>显示全部数据（双击图表效果相同）</translation>
    </message>
    <message>
        <source>Logarithmic Y Axis</source>
        <translation>对数 Y 轴</translation>
    </message>
    <message>
        <source>Copy Image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>Hold %1 and scroll to zoom</source>
        <translation>按住 %1 并滚动鼠标滚轮以缩放</translation>
    </message>
    <message>
        <source>There is no scalar tag &quot;%1&quot;. Available tags: %2.</source>
        <translation>不存在标量标签“%1”。可用的标签：%2。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Smoothed</source>
        <translation>平滑值</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>挂钟时间</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>相对</translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation>相对时间</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::scalars::ScalarsPanel</name>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Show every run</source>
        <translation>显示所有运行</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Hide every run</source>
        <translation>隐藏所有运行</translation>
    </message>
    <message>
        <source>Tick runs to show them; double-click a run to show only that run</source>
        <translation>勾选运行以显示；双击某个运行只显示它</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1 (at character %2). The previous filter stays in effect.</source>
        <translation>无效的正则表达式：%1（位于第 %2 个字符）。之前的筛选条件仍然有效。</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No scalars yet&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder with TensorBoard event files or MindSpore summaries; curves appear here while they load.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;还没有标量&lt;/b&gt;&lt;/p&gt;&lt;p&gt;打开包含 TensorBoard 事件文件或 MindSpore 摘要文件的运行文件夹；曲线会在加载时显示在这里。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;No tag matches &quot;%1&quot;&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Change or clear the filter to see the other %n tag(s).&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;没有标签匹配“%1”&lt;/b&gt;&lt;/p&gt;&lt;p&gt;修改或清除筛选条件以查看其他 %n 个标签。&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 tags · %n run(s)</source>
        <translation>
            <numerusform>%1 / %2 个标签 · %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Machine metrics: the System dock shows them over one wall-clock axis.</source>
        <translation>机器指标：“系统”停靠窗口在同一墙钟时间轴上显示它们。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::scalars::ScalarsToolbar</name>
    <message>
        <source>Filter tags (regular expression)</source>
        <translation>筛选标签（正则表达式）</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Exponential moving average weight (TensorBoard&apos;s debiased smoothing); 0 turns smoothing off</source>
        <translation>指数移动平均权重（TensorBoard 的去偏平滑）；0 表示关闭平滑</translation>
    </message>
    <message>
        <source>X axis</source>
        <translation>X 轴</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation>相对时间</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>挂钟时间</translation>
    </message>
    <message>
        <source>Measure the x axis in steps, time since each run started, or clock time</source>
        <translation>X 轴可按步数、自运行开始以来的时间或时钟时间度量</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>Logarithmic y axis (values at or below zero are not drawn)</source>
        <translation>对数 Y 轴（小于或等于零的值不绘制）</translation>
    </message>
    <message>
        <source>Ignore outliers</source>
        <translation>忽略离群值</translation>
    </message>
    <message>
        <source>Fit the y axis to the bulk of the values (around the 5th to 95th percentile), so that spikes and the first steps do not flatten the curves</source>
        <translation>让 Y 轴适应大部分数值（约第 5 到第 95 百分位），以免尖峰和最初几步把曲线压平</translation>
    </message>
    <message>
        <source>Fit All</source>
        <translation>全部适应</translation>
    </message>
    <message>
        <source>Reset the zoom of every chart to show all data</source>
        <translation>重置所有图表的缩放以显示全部数据</translation>
    </message>
    <message>
        <source>Show only tags matching this regular expression (case-insensitive)</source>
        <translation>只显示与此正则表达式匹配的标签（不区分大小写）</translation>
    </message>
    <message>
        <source>Cards</source>
        <translation>卡片</translation>
    </message>
    <message>
        <source>Size of the chart cards: smaller cards put more charts on a row</source>
        <translation>图表卡片的大小：卡片越小，每行放下的图表越多</translation>
    </message>
    <message>
        <source>Small Cards</source>
        <translation>小卡片</translation>
    </message>
    <message>
        <source>Medium Cards</source>
        <translation>中卡片</translation>
    </message>
    <message>
        <source>Large Cards</source>
        <translation>大卡片</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::steps::StepPhaseTableModel</name>
    <message>
        <source>N of ProfilerStep#N</source>
        <translation>ProfilerStep#N 中的 N</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>The step&apos;s span on the host (its ProfilerStep marker)</source>
        <translation>该迭代步在主机上的时长（其 ProfilerStep 标记）</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>迭代步时间</translation>
    </message>
    <message>
        <source>Host time in %1</source>
        <translation>%1 的主机时间</translation>
    </message>
    <message>
        <source>Forward over backward, each the longer of its host and device time</source>
        <translation>前向与反向之比，各取主机时间与设备时间中较长者</translation>
    </message>
    <message>
        <source>Fwd/bwd</source>
        <translation>前向/反向</translation>
    </message>
    <message>
        <source>Device time launched from %1</source>
        <translation>由 %1 启动的设备时间</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::steps::StepsPanel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>The rank whose steps are shown</source>
        <translation>显示其迭代步的卡</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Step time breakdown</source>
        <translation>迭代步时间分解</translation>
    </message>
    <message numerus="yes">
        <source>Average of %n step(s)</source>
        <translation>
            <numerusform>%n 个迭代步的平均值</numerusform>
        </translation>
    </message>
    <message>
        <source>Whole trace (no step markers)</source>
        <translation>整个跟踪（没有迭代步标记）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Click to show this step in the timeline</source>
        <translation>单击以在时间线中显示此迭代步</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>Trace %1</source>
        <translation>跟踪 %1</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>微秒</translation>
    </message>
    <message>
        <source>ns</source>
        <translation>纳秒</translation>
    </message>
    <message>
        <source>Time (%1)</source>
        <translation>时间（%1）</translation>
    </message>
    <message>
        <source>Avg</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Computing the step breakdown…</source>
        <translation>正在计算迭代步分解…</translation>
    </message>
    <message>
        <source>No steps in this trace</source>
        <translation>此跟踪中没有迭代步</translation>
    </message>
    <message>
        <source>No profiler trace</source>
        <translation>没有性能跟踪</translation>
    </message>
    <message>
        <source>No step markers: the whole trace as one step</source>
        <translation>没有迭代步标记：整个跟踪作为一个迭代步</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n 个迭代步</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · average %2 · kernel %3 · idle %4</source>
        <translation>%1 · 平均 %2 · 内核 %3 · 空闲 %4</translation>
    </message>
    <message>
        <source>Time (ns)</source>
        <translation>时间（纳秒）</translation>
    </message>
    <message>
        <source>Show step %1 in the timeline</source>
        <translation>在时间线中显示第 %1 步</translation>
    </message>
    <message>
        <source>Steps %1–%2</source>
        <translation>第 %1–%2 步</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>均值 %1</translation>
    </message>
    <message numerus="yes">
        <source>Each bar: the mean of %n step(s)</source>
        <translation>
            <numerusform>每条柱：%n 步的均值</numerusform>
        </translation>
    </message>
    <message>
        <source>Slowest: step %1, %2</source>
        <translation>最慢：第 %1 步，%2</translation>
    </message>
    <message>
        <source>Click to show the slowest step in the timeline</source>
        <translation>单击在时间线中显示最慢的一步</translation>
    </message>
    <message>
        <source>Step phases</source>
        <translation>迭代步阶段</translation>
    </message>
    <message numerus="yes">
        <source>Mean of %n step(s)</source>
        <translation>
            <numerusform>%n 个迭代步的平均值</numerusform>
        </translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Forward / backward: %1</source>
        <translation>前向 / 反向：%1</translation>
    </message>
    <message>
        <source>Host time (%1)</source>
        <translation>主机时间（%1）</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::system::SystemDetailChart</name>
    <message>
        <source>System metrics of %1</source>
        <translation>%1 的系统指标</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>Memory MiB</source>
        <translation>内存 MiB</translation>
    </message>
    <message>
        <source>GPU util %</source>
        <translation>GPU 利用率 %</translation>
    </message>
    <message>
        <source>GPU mem MiB</source>
        <translation>GPU 显存 MiB</translation>
    </message>
    <message>
        <source>GPU power W</source>
        <translation>GPU 功耗 W</translation>
    </message>
    <message>
        <source>Disk MiB/s</source>
        <translation>磁盘 MiB/s</translation>
    </message>
    <message>
        <source>Network MiB/s</source>
        <translation>网络 MiB/s</translation>
    </message>
    <message>
        <source>IB MiB/s</source>
        <translation>IB MiB/s</translation>
    </message>
    <message>
        <source>Wall time (s since the epoch)</source>
        <translation>挂钟时间（自 Unix 纪元起的秒数）</translation>
    </message>
    <message>
        <source>NPU AI Core %</source>
        <translation>NPU AI Core %</translation>
    </message>
    <message>
        <source>NPU mem MiB</source>
        <translation>NPU 内存 MiB</translation>
    </message>
    <message>
        <source>NPU power W</source>
        <translation>NPU 功耗 W</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::system::SystemOverviewModel</name>
    <message>
        <source>GPU util</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>CPU busy</source>
        <translation>CPU 繁忙</translation>
    </message>
    <message>
        <source>Process CPU</source>
        <translation>进程 CPU</translation>
    </message>
    <message>
        <source>Memory used</source>
        <translation>已用内存</translation>
    </message>
    <message>
        <source>IB traffic</source>
        <translation>IB 流量</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>GPU 功耗</translation>
    </message>
    <message>
        <source>above</source>
        <translation>高于</translation>
    </message>
    <message>
        <source>below</source>
        <translation>低于</translation>
    </message>
    <message>
        <source>Host / run</source>
        <translation>主机 / 运行</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>%1 avg (%2)</source>
        <translation>%1 平均（%2）</translation>
    </message>
    <message>
        <source>%1 p95 (%2)</source>
        <translation>%1 p95（%2）</translation>
    </message>
    <message>
        <source>%1 % %2 the median of all ranks</source>
        <translation>%2所有卡的中位数 %1 %</translation>
    </message>
    <message>
        <source>Values more than 20 % away from the median of all ranks are highlighted.</source>
        <translation>与所有卡中位数相差超过 20 % 的值会高亮显示。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::system::SystemPanel</name>
    <message>
        <source>The host or rank shown in detail</source>
        <translation>详细显示的主机或卡</translation>
    </message>
    <message>
        <source>No system metrics in this folder.

Record the machine under a training job with
runlens record --out RUN_FOLDER -- python train.py

and open RUN_FOLDER: CPU, memory, disk, network, InfiniBand and GPU metrics appear here, next to the run&apos;s scalars.</source>
        <translation>此文件夹中没有系统指标。

用以下命令记录训练作业运行时的机器状态：
runlens record --out RUN_FOLDER -- python train.py

然后打开 RUN_FOLDER：CPU、内存、磁盘、网络、InfiniBand 和 GPU 指标会显示在这里，与该运行的标量并列。</translation>
    </message>
    <message numerus="yes">
        <source>%n host(s) or rank(s) with system metrics</source>
        <translation>
            <numerusform>%n 台主机或卡有系统指标</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::widgets::tensor::HeatmapView</name>
    <message>
        <source>A heatmap shows one or two dimensions; choose the row and column dimensions of the slice.</source>
        <translation>热力图只显示一维或二维；请选择切片的行维度和列维度。</translation>
    </message>
    <message>
        <source>The data of %1 is shorter than its shape needs.</source>
        <translation>%1 的数据比其形状所需的短。</translation>
    </message>
    <message>
        <source>%L1 elements are too many to draw; slice a smaller part.</source>
        <translation>%L1 个元素太多，无法绘制；请切取较小的部分。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::tensor::SliceControls</name>
    <message>
        <source>dim %1 (%2)</source>
        <translation>维度 %1（%2）</translation>
    </message>
    <message>
        <source>The dimension shown as rows</source>
        <translation>作为行显示的维度</translation>
    </message>
    <message>
        <source>The dimension shown as columns; none shows a vector</source>
        <translation>作为列显示的维度；选“无”则显示为向量</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>列</translation>
    </message>
    <message>
        <source>numpy index, e.g. [0, :, 2:10:2, -1] or [..., 0]</source>
        <translation>numpy 索引，例如 [0, :, 2:10:2, -1] 或 [..., 0]</translation>
    </message>
    <message>
        <source>A numpy index expression: integers pick an index (negative counts from the end), start:stop:step ranges keep a dimension, &apos;...&apos; stands for the remaining dimensions. The result must have at most two dimensions. Applied on Enter.</source>
        <translation>numpy 索引表达式：整数选取一个索引（负数从末尾计数），start:stop:step 范围保留该维度，“...”代表其余维度。结果最多只能有两个维度。按 Enter 应用。</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Index along dimension %1</source>
        <translation>沿第 %1 维的索引</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Column %1: %2</source>
        <translation>第 %1 列：%2</translation>
    </message>
    <message>
        <source>The slice has %1 dimensions; pick indices for %2 more dimensions (at most two can be shown).</source>
        <translation>切片有 %1 个维度；请再为 %2 个维度选择索引（最多只能显示两个维度）。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::tensor::TensorCompareWidget</name>
    <message>
        <source>Difference a − b</source>
        <translation>差值 a − b</translation>
    </message>
    <message>
        <source>Absolute |a − b|</source>
        <translation>绝对差 |a − b|</translation>
    </message>
    <message>
        <source>Relative |a − b| / max(|a|, |b|)</source>
        <translation>相对差 |a − b| / max(|a|, |b|)</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>a</source>
        <translation>a</translation>
    </message>
    <message>
        <source>b</source>
        <translation>b</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>The largest differences; click a row to go to its element</source>
        <translation>差值最大的元素；单击某行可跳转到该元素</translation>
    </message>
    <message>
        <source>a: %1   b: %2</source>
        <translation>a：%1   b：%2</translation>
    </message>
    <message>
        <source>Pick two tensors of the same shape to compare.</source>
        <translation>请选择两个形状相同的张量进行比较。</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %Ln elements…</source>
        <translation>
            <numerusform>正在比较 %Ln 个元素…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1   a %2   b %3   difference %4</source>
        <translation>%1   a %2   b %3   差值 %4</translation>
    </message>
    <message>
        <source>max |diff| %1</source>
        <translation>最大 |差值| %1</translation>
    </message>
    <message>
        <source>mean |diff| %1</source>
        <translation>平均 |差值| %1</translation>
    </message>
    <message>
        <source>RMSE %1</source>
        <translation>RMSE %1</translation>
    </message>
    <message>
        <source>differing %1 of %2</source>
        <translation>%2 个中有 %1 个不同</translation>
    </message>
    <message>
        <source>NaN mismatches %1</source>
        <translation>NaN 不一致 %1</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::tensor::TensorPanel</name>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation>NumPy 数组 (*.npy)</translation>
    </message>
    <message>
        <source>The tensor has no readable source.</source>
        <translation>该张量没有可读取的来源。</translation>
    </message>
    <message>
        <source>Precision </source>
        <translation>精度 </translation>
    </message>
    <message>
        <source>Significant digits shown in the table</source>
        <translation>表格中显示的有效数字位数</translation>
    </message>
    <message>
        <source>1e-3</source>
        <translation>1e-3</translation>
    </message>
    <message>
        <source>Scientific notation in the table</source>
        <translation>表格中使用科学计数法</translation>
    </message>
    <message>
        <source>Heatmap colours; the diverging map is symmetric around 0</source>
        <translation>热力图配色；发散配色以 0 为中心对称</translation>
    </message>
    <message>
        <source>Slice range</source>
        <translation>切片范围</translation>
    </message>
    <message>
        <source>Whole tensor range</source>
        <translation>整个张量范围</translation>
    </message>
    <message>
        <source>Heatmap colours span the slice&apos;s min/max or the whole tensor&apos;s (once computed)</source>
        <translation>热力图颜色覆盖切片的最小值/最大值，或整个张量的最小值/最大值（计算完成后）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Zoom the heatmap to fit</source>
        <translation>缩放热力图以适应视图</translation>
    </message>
    <message>
        <source>1:1</source>
        <translation>1:1</translation>
    </message>
    <message>
        <source>One element per pixel</source>
        <translation>每个像素一个元素</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Slice as CSV…</source>
        <translation>将切片导出为 CSV…</translation>
    </message>
    <message>
        <source>Slice as .npy…</source>
        <translation>将切片导出为 .npy…</translation>
    </message>
    <message>
        <source>Heatmap as PNG…</source>
        <translation>将热力图导出为 PNG…</translation>
    </message>
    <message>
        <source>Filter: name kind:weight step:30</source>
        <translation>筛选：名称 kind:weight step:30</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>The same tensor at the steps it was saved at</source>
        <translation>同一张量在各个保存步的版本</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>比较对象</translation>
    </message>
    <message>
        <source>Another step of this tensor, or another tensor of the same shape; the same slice of both is compared</source>
        <translation>此张量的另一步，或形状相同的另一个张量；比较两者的相同切片</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>[%1] = %2</source>
        <translation>[%1] = %2</translation>
    </message>
    <message>
        <source>step %1 (%2 of %3)</source>
        <translation>第 %1 步（%2 / %3）</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Cannot open %1.</source>
        <translation>无法打开 %1。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Show %1 in the graph</source>
        <translation>在计算图中显示 %1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source> · strides %1 bytes</source>
        <translation> · 步幅 %1 字节</translation>
    </message>
    <message>
        <source> · byte-swapped</source>
        <translation> · 字节序已交换</translation>
    </message>
    <message>
        <source> · %1</source>
        <translation> · %1</translation>
    </message>
    <message>
        <source> · step %1</source>
        <translation> · 第 %1 步</translation>
    </message>
    <message>
        <source>%1, member %2</source>
        <translation>%1，成员 %2</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1（第 %2 步）</translation>
    </message>
    <message>
        <source>Nothing to export: no tensor is shown.</source>
        <translation>没有可导出的内容：未显示任何张量。</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Cannot export to %1: %2</source>
        <translation>无法导出到 %1：%2</translation>
    </message>
    <message>
        <source>no tensor is shown.</source>
        <translation>未显示任何张量。</translation>
    </message>
    <message>
        <source>the heatmap shows nothing (a scalar or an empty slice).</source>
        <translation>热力图没有显示任何内容（标量或空切片）。</translation>
    </message>
    <message>
        <source>the image could not be encoded.</source>
        <translation>无法编码该图像。</translation>
    </message>
    <message>
        <source>Colour scale: the range the colours span (NaN is magenta)</source>
        <translation>色标：颜色所覆盖的数值范围（NaN 显示为品红色）</translation>
    </message>
    <message>
        <source>File metadata: %1</source>
        <translation>文件元数据：%1</translation>
    </message>
    <message>
        <source>No tensors. RunLens reads .npy, .npz and .safetensors files, MindSpore dump folders (rank_N/&lt;net&gt;/&lt;graph&gt;/&lt;iteration&gt;/) and the tensors recorded in TensorBoard and MindSpore summaries; open a run folder that holds them.</source>
        <translation>没有张量。RunLens 可读取 .npy、.npz 和 .safetensors 文件、MindSpore 转储文件夹（rank_N/&lt;net&gt;/&lt;graph&gt;/&lt;iteration&gt;/）以及 TensorBoard 和 MindSpore 摘要中记录的张量；请打开包含这些内容的运行文件夹。</translation>
    </message>
    <message>
        <source>summary file %1, tag %2</source>
        <translation>摘要文件 %1，标签 %2</translation>
    </message>
    <message>
        <source>Colour map</source>
        <translation>色图</translation>
    </message>
    <message>
        <source>Colour range</source>
        <translation>颜色范围</translation>
    </message>
    <message>
        <source>Project Rows</source>
        <translation>投影各行</translation>
    </message>
    <message>
        <source>Show the tensor&apos;s rows as points in the Projector (PCA, t-SNE, neighbours); the other dimensions are flattened</source>
        <translation>在投影器中将张量的各行显示为点（PCA、t-SNE、近邻）；其余维度被展平</translation>
    </message>
    <message>
        <source>Nothing to project: the shown tensor has no rows (two or more dimensions).</source>
        <translation>没有可投影的内容：显示的张量没有行（需要二维及以上）。</translation>
    </message>
    <message>
        <source>Projecting the rows of %1…</source>
        <translation>正在投影 %1 的各行…</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) of %1 dimensions sent to the Projector</source>
        <translation>
            <numerusform>已将 %n 个 %1 维的点发送到投影器</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::widgets::tensor::TensorStatsWidget</name>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Whole tensor</source>
        <translation>整个张量</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop computing the whole tensor&apos;s statistics</source>
        <translation>停止计算整个张量的统计</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Compute the whole tensor&apos;s statistics</source>
        <translation>计算整个张量的统计</translation>
    </message>
    <message>
        <source>Histogram of</source>
        <translation>直方图来源</translation>
    </message>
    <message>
        <source>Log counts</source>
        <translation>对数计数</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>mean |x|</source>
        <translation>|x| 均值</translation>
    </message>
    <message>
        <source>L2 norm</source>
        <translation>L2 范数</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation>+Inf</translation>
    </message>
    <message>
        <source>−Inf</source>
        <translation>−Inf</translation>
    </message>
    <message>
        <source>zeros</source>
        <translation>零值</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Counting the whole tensor&apos;s histogram…</source>
        <translation>正在统计整个张量的直方图…</translation>
    </message>
    <message>
        <source>Computing the whole tensor&apos;s statistics…</source>
        <translation>正在计算整个张量的统计…</translation>
    </message>
    <message>
        <source>Whole-tensor computation cancelled.</source>
        <translation>整个张量的计算已取消。</translation>
    </message>
    <message>
        <source>Histogram of the slice</source>
        <translation>切片的直方图</translation>
    </message>
    <message>
        <source>Histogram of the whole tensor</source>
        <translation>整个张量的直方图</translation>
    </message>
    <message>
        <source>slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Histogram of the slice or of the whole tensor</source>
        <translation>切片或整个张量的直方图</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::tensor::TensorTableView</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy with indices</source>
        <translation>连同索引复制</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::timeline::TimelineDetails</name>
    <message>
        <source>Click a slice to see its details.</source>
        <translation>点击一个切片以查看其详细信息。</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>持续时间</translation>
    </message>
    <message>
        <source>instant</source>
        <translation>瞬时事件</translation>
    </message>
    <message>
        <source>Self time</source>
        <translation>自身时间</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>begin without end: runs to the end of the trace</source>
        <translation>有开始无结束：持续到追踪结束</translation>
    </message>
    <message>
        <source>longer than 7 days: excluded from statistics</source>
        <translation>超过 7 天：不计入统计</translation>
    </message>
    <message>
        <source>Flow out</source>
        <translation>流出</translation>
    </message>
    <message>
        <source>Flow in</source>
        <translation>流入</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>raw</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>Launched by</source>
        <translation>启动者</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… 以及另外 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Launched</source>
        <translation>已启动</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::timeline::TimelineFormat</name>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>微秒</translation>
    </message>
    <message>
        <source>ns</source>
        <translation>纳秒</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>d</source>
        <translation>天</translation>
    </message>
    <message>
        <source>h</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>min</source>
        <translation>分钟</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::timeline::TimelineLayout</name>
    <message>
        <source>Device %1</source>
        <translation>设备 %1</translation>
    </message>
    <message>
        <source>Process %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Rank %1 · %2</source>
        <translation>Rank %1 · %2</translation>
    </message>
    <message>
        <source>Stream %1</source>
        <translation>流 %1</translation>
    </message>
    <message>
        <source>Counter</source>
        <translation>计数器</translation>
    </message>
    <message>
        <source>Async %1</source>
        <translation>异步 %1</translation>
    </message>
    <message>
        <source>Thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <source>Async</source>
        <translation>异步</translation>
    </message>
    <message>
        <source>Unnamed process</source>
        <translation>未命名进程</translation>
    </message>
    <message>
        <source>Unnamed thread</source>
        <translation>未命名线程</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::timeline::TimelinePainter</name>
    <message>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Span %1</source>
        <translation>跨度 %1</translation>
    </message>
    <message>
        <source>No trace loaded</source>
        <translation>未加载追踪</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::timeline::TimelinePanel</name>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Flows</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Show the flow arrows of the selected slice</source>
        <translation>显示所选切片的流箭头</translation>
    </message>
    <message>
        <source>The timeline shows what has been read so far; the whole trace replaces it when reading ends</source>
        <translation>时间线显示目前已读取的部分；读取结束后由完整的跟踪替换</translation>
    </message>
    <message>
        <source>Reading… %1 %</source>
        <translation>正在读取… %1 %</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::timeline::TimelineSearchBar</name>
    <message>
        <source>Search slices by name (regular expression)</source>
        <translation>按名称搜索切片（正则表达式）</translation>
    </message>
    <message>
        <source>Enter: next match, Shift+Enter: previous match</source>
        <translation>Enter：下一个匹配，Shift+Enter：上一个匹配</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1</source>
        <translation>无效的正则表达式：%1</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>invalid pattern</source>
        <translation>无效的模式</translation>
    </message>
    <message>
        <source>no matches</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::timeline::TimelineView</name>
    <message>
        <source>Preparing the timeline…</source>
        <translation>正在准备时间线…</translation>
    </message>
    <message>
        <source>No trace loaded</source>
        <translation>未加载追踪</translation>
    </message>
    <message>
        <source>Duration: %1</source>
        <translation>持续时间：%1</translation>
    </message>
    <message>
        <source>Category: %1</source>
        <translation>类别：%1</translation>
    </message>
    <message>
        <source>Start: %1</source>
        <translation>开始：%1</translation>
    </message>
    <message>
        <source>W/S zoom, A/D pan (hold to keep going), wheel zooms at the cursor, Shift+wheel pans, drag pans, Shift+drag selects a range, F fits, M marks, Escape clears, Ctrl+Z undoes a zoom.</source>
        <translation>W/S 缩放，A/D 平移（按住可持续），滚轮在光标处缩放，Shift+滚轮平移，拖动平移，Shift+拖动选择范围，F 适应选区，M 标记，Esc 清除，Ctrl+Z 撤销缩放。</translation>
    </message>
</context>
<context>
    <name>runlens::widgets::welcome::WelcomePage</name>
    <message>
        <source>RunLens</source>
        <translation>RunLens</translation>
    </message>
    <message>
        <source>Debug and tune deep-learning training runs: summaries, graphs, tensors, profiler traces and memory in one place.</source>
        <translation>调试和调优深度学习训练运行：摘要、计算图、张量、性能数据和内存尽在一处。</translation>
    </message>
    <message>
        <source>Open Run Folder…</source>
        <translation>打开运行文件夹…</translation>
    </message>
    <message>
        <source>Choose a training run folder: every artifact in it is found and read (Ctrl+O)</source>
        <translation>选择一个训练运行文件夹：自动查找并读取其中的所有产物（Ctrl+O）</translation>
    </message>
    <message>
        <source>Open File…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Open one file: an event file, a trace, a graph or a tensor</source>
        <translation>打开单个文件：事件文件、性能数据、计算图或张量</translation>
    </message>
    <message>
        <source>Open the Demo Run</source>
        <translation>打开演示运行</translation>
    </message>
    <message>
        <source>Click a name to open it again; ✕ removes it from the list</source>
        <translation>单击名称可再次打开；✕ 可将其从列表中移除</translation>
    </message>
    <message>
        <source>Folders you open are listed here.</source>
        <translation>您打开过的文件夹会列在这里。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Recent</source>
        <translation>最近</translation>
    </message>
    <message>
        <source>Supported formats</source>
        <translation>支持的格式</translation>
    </message>
    <message>
        <source>Tip: drop a run folder or a file anywhere on this window to open it. Help &gt; Keyboard Shortcuts lists what the keys do.</source>
        <translation>提示：将运行文件夹或文件拖放到此窗口的任意位置即可打开。“帮助 &gt; 键盘快捷键”列出了各按键的作用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Summaries&lt;/b&gt;: TensorBoard event files (&lt;code&gt;*tfevents*&lt;/code&gt;) from PyTorch, TensorFlow and tensorboardX; MindSpore summaries (&lt;code&gt;*.summary.*_MS&lt;/code&gt;, &lt;code&gt;*_lineage&lt;/code&gt;)</source>
        <translation>&lt;b&gt;摘要&lt;/b&gt;：来自 PyTorch、TensorFlow 和 tensorboardX 的 TensorBoard 事件文件（&lt;code&gt;*tfevents*&lt;/code&gt;）；MindSpore 摘要（&lt;code&gt;*.summary.*_MS&lt;/code&gt;、&lt;code&gt;*_lineage&lt;/code&gt;）</translation>
    </message>
    <message>
        <source>&lt;b&gt;IR graphs&lt;/b&gt;: MindSpore &lt;code&gt;.ir&lt;/code&gt; and anf_ir &lt;code&gt;.pb&lt;/code&gt;, Graphviz &lt;code&gt;.dot&lt;/code&gt;, TensorFlow GraphDef (&lt;code&gt;.pb&lt;/code&gt;, &lt;code&gt;.pbtxt&lt;/code&gt;), ONNX &lt;code&gt;.onnx&lt;/code&gt;</source>
        <translation>&lt;b&gt;IR 计算图&lt;/b&gt;：MindSpore &lt;code&gt;.ir&lt;/code&gt; 和 anf_ir &lt;code&gt;.pb&lt;/code&gt;、Graphviz &lt;code&gt;.dot&lt;/code&gt;、TensorFlow GraphDef（&lt;code&gt;.pb&lt;/code&gt;、&lt;code&gt;.pbtxt&lt;/code&gt;）、ONNX &lt;code&gt;.onnx&lt;/code&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Tensor dumps&lt;/b&gt;: &lt;code&gt;.npy&lt;/code&gt;, &lt;code&gt;.npz&lt;/code&gt;, &lt;code&gt;.safetensors&lt;/code&gt; and MindSpore dump folders</source>
        <translation>&lt;b&gt;张量转储&lt;/b&gt;：&lt;code&gt;.npy&lt;/code&gt;、&lt;code&gt;.npz&lt;/code&gt;、&lt;code&gt;.safetensors&lt;/code&gt; 以及 MindSpore dump 文件夹</translation>
    </message>
    <message>
        <source>&lt;b&gt;Profiler traces&lt;/b&gt;: Chrome trace JSON (&lt;code&gt;.json&lt;/code&gt;, &lt;code&gt;.json.gz&lt;/code&gt;) from PyTorch Kineto, Paddle, TensorFlow and MindSpore</source>
        <translation>&lt;b&gt;性能数据&lt;/b&gt;：来自 PyTorch Kineto、Paddle、TensorFlow 和 MindSpore 的 Chrome trace JSON（&lt;code&gt;.json&lt;/code&gt;、&lt;code&gt;.json.gz&lt;/code&gt;）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Profiler folders&lt;/b&gt;: MindSpore &lt;code&gt;profiler/&lt;/code&gt;, &lt;code&gt;ASCEND_PROFILER_OUTPUT/&lt;/code&gt; and &lt;code&gt;PROF_*&lt;/code&gt; folders (operators, steps, data pipeline, cluster of ranks)</source>
        <translation>&lt;b&gt;性能分析文件夹&lt;/b&gt;：MindSpore &lt;code&gt;profiler/&lt;/code&gt;、&lt;code&gt;ASCEND_PROFILER_OUTPUT/&lt;/code&gt; 和 &lt;code&gt;PROF_*&lt;/code&gt; 文件夹（算子、步、数据管道、多卡集群）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Memory&lt;/b&gt;: memory events in Kineto traces, PyTorch &lt;code&gt;export_memory_timeline&lt;/code&gt; output and MindSpore memory usage files</source>
        <translation>&lt;b&gt;内存&lt;/b&gt;：Kineto 性能数据中的内存事件、PyTorch &lt;code&gt;export_memory_timeline&lt;/code&gt; 输出以及 MindSpore 内存使用文件</translation>
    </message>
    <message>
        <source>today %1</source>
        <translation>今天 %1</translation>
    </message>
    <message>
        <source>yesterday %1</source>
        <translation>昨天 %1</translation>
    </message>
    <message>
        <source>opened %1</source>
        <translation>打开于 %1</translation>
    </message>
    <message>
        <source>no longer there</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>Remove %1 from the list (the folder itself is not touched)</source>
        <translation>从列表中移除 %1（不会改动文件夹本身）</translation>
    </message>
    <message>
        <source>Write a small generated example (two runs with scalars and histograms, a profiler trace, a model graph and weight dumps) to the cache folder and open it</source>
        <translation>把一个生成的小示例（两个带标量和直方图的运行、一份性能数据、一个模型计算图和权重转储）写入缓存文件夹并打开</translation>
    </message>
</context>
</TS>
