import PerfKit
