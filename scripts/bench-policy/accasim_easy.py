# AccaSim's built-in EASY backfilling on the jobs sweep simulates (KTH-SP2,
# 100 single-core nodes), output to ./accasim-out. AccaSim 1.1.3 imports
# collections.Mapping, which Python 3.10 removed: the aliases come back
# before it is imported.
import collections
import collections.abc
for _n in ("Mapping", "MutableMapping", "Sequence", "Iterable", "Callable"):
    setattr(collections, _n, getattr(collections.abc, _n))
import sys
from accasim.base.simulator_class import Simulator
from accasim.base.scheduler_class import EASYBackfilling
from accasim.base.allocator_class import FirstFit
import json
cfg = {"groups": {"g0": {"core": 1, "mem": 1}}, "resources": {"g0": 100}, "equivalence": {"processor": {"core": 1}}, "start_time": 0}
json.dump(cfg, open("kth-accasim.config", "w"))
sim = Simulator(sys.argv[1], "kth-accasim.config", EASYBackfilling(FirstFit()), RESULTS_FOLDER_PATH="accasim-out")
sim.start_simulation(system_status=False)
