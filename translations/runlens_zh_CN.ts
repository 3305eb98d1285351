<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>runlens</name>
    <message>
        <source>Run folder: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1 (%2 files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No training artifacts found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The walk stopped at the entry limit; some files were not scanned.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ends in an incomplete record: the writer may still be adding to it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  scalars %1: %2 points, steps %3..%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is named like a %2 file but is empty, perhaps not written yet; scan again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is named like a %2 file but its content is not one; it was left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ArtifactKind</name>
    <message>
        <source>TensorBoard events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore lineage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VisualDL log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiler trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore IR graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graphviz graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONNX model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TensorFlow graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore graph (anf_ir)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TorchScript graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NumPy tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NumPy archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>safetensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiler table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiler data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table (CSV)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other file</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ChartExportMenu</name>
    <message>
        <source>Save the chart as a %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export to %1: the chart no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ChartExporter</name>
    <message>
        <source>Cannot write %1: the folder %2 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG drawing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export to %1: unknown file type. Use a name ending in .png, .svg, .pdf or .csv.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the PNG image %1. Check that the folder is writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the SVG drawing %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart exported by RunLens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the SVG drawing %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the PDF document %1. Check that the folder is writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the CSV table %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ChartSection</name>
    <message>
        <source>Show or hide the charts of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::DemoRun</name>
    <message>
        <source>cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::Diagnostic</name>
    <message>
        <source>: offset %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: line %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Information</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ImportSession</name>
    <message numerus="yes">
        <source>Imported %n file(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Importing %1 of %2 files…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ImportStatus</name>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported with problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not read by this version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::MainWindow</name>
    <message>
        <source>RunLens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scalars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Run Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;File…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export Chart…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About RunLens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a run folder to begin (Ctrl+O), or drop one onto this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files that are still being written are read as they grow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop importing; what was read so far is kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Run Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training artifacts (*tfevents* *summary* *.json *.gz *.ir *.dot *.pb *.pbtxt *.onnx *.npy *.npz *.safetensors);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — RunLens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scanning %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No training artifacts found in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n run(s), </source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n scalar tag(s), </source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n point(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) with problems (see the Run Browser)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>● live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 files are listed, but this version of RunLens does not open them yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no chart to export yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About RunLens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;RunLens %1&lt;/h3&gt;&lt;p&gt;A desktop workbench for debugging and tuning deep-learning training runs: summaries, graphs, tensors, profiler traces and memory in one place.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::RunBrowserModel</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) with problems</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n scalar point(s) in %1 tag(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Still being written: new records are read as they arrive</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::RunBrowserWidget</name>
    <message>
        <source>Filter files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run folder open. Use File &gt; Open Run Folder or drop a folder here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n run(s), </source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The folder holds more entries than were scanned.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::RunLegendModel</name>
    <message numerus="yes">
        <source>%n scalar point(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Shown in every chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden in every chart</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::RunScanner</name>
    <message>
        <source>No folder or file was given to scan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 cannot be read: %2. Check its permissions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder of %1 cannot be read: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is neither a folder nor a regular file.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ScalarChart</name>
    <message>
        <source>Ctrl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shift</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meta</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all data (double-click the chart to do the same)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logarithmic Y Axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hold %1 and scroll to zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no scalar tag &quot;%1&quot;. Available tags: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::ScalarsPanel</name>
    <message>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show every run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide every run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick runs to show them; double-click a run to show only that run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid regular expression: %1 (at character %2). The previous filter stays in effect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No scalars yet&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Open a run folder with TensorBoard event files or MindSpore summaries; curves appear here while they load.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;No tag matches &quot;%1&quot;&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Change or clear the filter to see the other %n tag(s).&lt;/p&gt;</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 tags · %n run(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>runlens::ScalarsToolbar</name>
    <message>
        <source>Filter tags (regular expression)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exponential moving average weight (TensorBoard&apos;s debiased smoothing); 0 turns smoothing off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure the x axis in steps, time since each run started, or clock time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logarithmic y axis (values at or below zero are not drawn)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignore outliers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit the y axis to the bulk of the values (around the 5th to 95th percentile), so that spikes and the first steps do not flatten the curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset the zoom of every chart to show all data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only tags matching this regular expression (case-insensitive)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::Walker</name>
    <message>
        <source>The scan of %1 was canceled; the list of files is incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped after %1 entries: %2 holds more than the scan limit, files after %3 were not listed. Open a subfolder to see the rest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 (a symbolic link) cannot be read: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a symbolic link to %2, which contains it (a loop); it was not followed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a symbolic link to %2, which was already scanned; it was not followed again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 cannot be read: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the folder %1 failed: %2; some files may be missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 cannot be read: %2. Its files were not listed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is the same folder as %2 (a mount loop); it was not scanned again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 cannot be read: %2. Check its permissions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 cannot be read: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a file RunLens can read.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::cli</name>
    <message>
        <source>runlens: a PATH is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens: %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lists what a run folder holds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print JSON (the stable contract) instead of text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run folder or file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imports a run folder and reports what each artifact imported to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writes the demo run folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder to write (created if needed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens demo: a DIR is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens demo: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo run written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exports a chart without a display.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chart, as KIND:NAME (for example scalars:train/loss).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output file; the format follows the extension (png, svg, pdf, csv).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothing weight for scalars, 0 to 0.999 (default 0.6).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens export: --chart KIND:NAME and --out FILE are required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens export: unknown chart kind &apos;%1&apos; (known: scalars)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens export: no scalar tag &apos;%1&apos; in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>available tags: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens export: --smoothing takes a number from 0 to 0.999</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runlens export: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load PATH, render the main window offscreen to FILE and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language of the interface: en or zh_CN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run folder or file to open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No display found: writing a screenshot to %1 instead of opening a window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Screenshot written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the screenshot %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>runlens::summary</name>
    <message>
        <source>The event at step %1 has no valid wall time (NaN); it was skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tag &quot;%1&quot; is a scalar, but its value at step %2 is a %3 tensor with %4 dimensions that does not hold one number; such values of this tag are skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The record of %1 bytes is not a valid %2 event; it was skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not a TFRecord summary file: its first record header fails its checksum.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The length of the record at this offset fails its checksum, so the records after it cannot be located; the rest of the file is not read. The file is damaged (partly overwritten or concatenated).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The record at this offset claims %1 bytes, more than a summary record may hold; the rest of the file is not read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading failed: %1. The rest of the file is not read; reopen the run to try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contents of the record of %1 bytes at this offset fail their checksum; the record was skipped. The file is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more record(s) with the same problem were skipped.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The file became shorter (%1 bytes) than what was already read (%2 bytes): it was replaced or truncated. Reopen the run to read it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the file: %1. Check that it exists and is readable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading stopped: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1 for writing: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The event file is not open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor-encoded scalars exist only in TensorBoard event files.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
