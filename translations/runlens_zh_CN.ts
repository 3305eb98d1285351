<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
        <source>Table (CSV)</source>
        <translation>表格（CSV）</translation>
    </message>
    <message>
        <source>Other file</source>
        <translation>其他文件</translation>
    </message>
</context>
<context>
    <name>runlens::ChartExportMenu</name>
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
</context>
<context>
    <name>runlens::ChartExporter</name>
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
    <name>runlens::ChartSection</name>
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
    <name>runlens::DemoRun</name>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
</context>
<context>
    <name>runlens::Diagnostic</name>
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
    <name>runlens::ImportSession</name>
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
        <source>Not read by this version</source>
        <translation>此版本暂不读取</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>runlens::MainWindow</name>
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
        <source>Training artifacts (*tfevents* *summary* *.json *.gz *.ir *.dot *.pb *.pbtxt *.onnx *.npy *.npz *.safetensors);;All files (*)</source>
        <translation>训练产物 (*tfevents* *summary* *.json *.gz *.ir *.dot *.pb *.pbtxt *.onnx *.npy *.npz *.safetensors);;所有文件 (*)</translation>
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
</context>
<context>
    <name>runlens::RunBrowserModel</name>
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
    <message>
        <source>Importing…</source>
        <translation>导入中…</translation>
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
</context>
<context>
    <name>runlens::RunBrowserWidget</name>
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
</context>
<context>
    <name>runlens::RunLegendModel</name>
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
    <name>runlens::RunScanner</name>
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
    <name>runlens::ScalarChart</name>
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
    <name>runlens::ScalarsPanel</name>
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
</context>
<context>
    <name>runlens::ScalarsToolbar</name>
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
        <source>The chart, as KIND:NAME (for example scalars:train/loss).</source>
        <translation>图表，格式为 KIND:NAME（例如 scalars:train/loss）。</translation>
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
        <source>runlens export: unknown chart kind &apos;%1&apos; (known: scalars)</source>
        <translation>runlens export：未知的图表类型“%1”（已知：scalars）</translation>
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
</context>
<context>
    <name>runlens::main</name>
    <message>
        <source>RunLens: a desktop workbench for debugging and tuning deep-learning training runs.

Subcommands (run &apos;runlens COMMAND --help&apos; for their options):
  scan PATH [--json]       what a run folder holds
  info PATH [--json]       what each artifact imported to
  export PATH --chart scalars:TAG --out FILE.{png,svg,pdf,csv}
  demo DIR                 write the demo run folder</source>
        <translation>RunLens：用于调试和调优深度学习训练的桌面工作台。

子命令（运行 &apos;runlens COMMAND --help&apos; 查看其选项）：
  scan PATH [--json]       运行文件夹中有什么
  info PATH [--json]       每个产物导入的结果
  export PATH --chart scalars:TAG --out FILE.{png,svg,pdf,csv}
  demo DIR                 写入演示运行文件夹</translation>
    </message>
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
</context>
</TS>
