"""Named slots of the small int/float vectors that cross the boundary into the kernel
(docs/design.md property 2: the kernel sees arrays and ints only).

``run/args.py`` fills them: ``rules_arrays`` the R_* / RF_* slots, ``kernel_args`` the
policy codes; the kernel writes one deal's record into the O_* / F_* slots. Every code
here is a plain int, so numba freezes it as a constant; the codes of the rule options are
derived from the enums of ``game/rules.py`` (their members in order: 0, 1, ...).

It lives in ``game/`` rather than ``kernel/`` so that the layers above ``run/`` can read
the slots of the arrays they are handed without importing numba (``kernel/__init__.py``
imports it); the kernel's cache key hashes ``game/`` as well as ``kernel/``.
"""

from enum import Enum

from loo_sim.base.config import SESSION_BLOCK  # noqa: F401 (sessions per kernel block)
from loo_sim.game.classes import EARLIER_IN_BINS, N_CLASSES
from loo_sim.game.decl import DECL_NAMES, OUTCOME_NAMES, Decl, Outcome  # noqa: F401 (codes and their names)
from loo_sim.game.record import EXACT_LIMIT, OVERFLOW_LIMIT  # noqa: F401 (R3, for the kernel)
from loo_sim.game.rules import BoldStand, Lead, Penalty, Trump, Void


def _codes(enum: type[Enum]) -> dict[str, int]:
    """An option's kernel codes, by value: its members in declaration order are 0, 1, ..."""
    return {member.value: code for code, member in enumerate(enum)}


MAX_PLAYERS = 8
MAX_TRICKS = 5

# ---- rules: int vector -------------------------------------------------------------
R_PLAYERS, R_HAND, R_MISS, R_TRUMP, R_ANTE_EACH, R_PENALTY, R_BOLD, R_SINGLE_POT = range(8)
R_DEFENDS, R_LEAD, R_VOID, R_PAM, R_CIVIL, R_EXCHANGE, R_FLUSH, R_CLUB_LAW = range(8, 16)
R_TAKES_ALL = 16  # R9c dealer_takes_all_pass
R_TAKES_MISS = 17  # R9c dealer_takes_miss
R_NO_PAM_FLUSH = 18  # R9c pam_flush = false (with Pam)
R_PAM_FLUSH = 19  # 1: four of a suit plus Pam form a flush (game.legality.pam_flush; flush-aware's reading)
R_SPARES_PAM = 20  # R9c flush_spares_pam (with Pam)
R_SPARES_FLUSHES = 21  # R9c flush_spares_flushes
R_LOOS_ALL = 22  # R9c flush_loos_all
R_FLUSH_SPLIT = 23  # R9c flush_tie = split
R_AT_TURN = 24  # R9c exchange_timing = at_turn (with an exchange)
R_LEN = 25
# ---- rules: float vector -------------------------------------------------------------
RF_ANTE, RF_PENALTY = 0, 1
RF_P_IN = 2  # from the strength table: the share of seats that enter a deal (threshold, ev)
RF_LEN = 3

TRUMP_CODES = _codes(Trump)  # R6
TURN_UP, FIRST_LEAD, FIRST_RENOUNCE = (TRUMP_CODES[m] for m in (Trump.TURN_UP, Trump.FIRST_LEAD, Trump.FIRST_RENOUNCE))
PENALTY_CODES = _codes(Penalty)  # R3, R9c
PEN_UNLIMITED, PEN_LIMITED, PEN_CAPPED = (
    PENALTY_CODES[m] for m in (Penalty.UNLIMITED, Penalty.LIMITED, Penalty.CAPPED)
)
BOLD_CODES = _codes(BoldStand)  # R4
BOLD_OFF, BOLD_LAST, BOLD_EVERYONE = (
    BOLD_CODES[m] for m in (BoldStand.OFF, BoldStand.LAST_AND_DEALER, BoldStand.EVERYONE)
)
LEAD_CODES = _codes(Lead)  # R7
LEAD_FREE, LEAD_ACE, LEAD_TRUMP, LEAD_CLASSIC = (LEAD_CODES[m] for m in (Lead.FREE, Lead.ACE, Lead.TRUMP, Lead.CLASSIC))
LEAD_ACE_KING = len(LEAD_CODES)  # R9c: lead = ace with ace_lead_king (a kernel code of its own, not an enum member)
VOID_CODES = _codes(Void)  # R7
VOID_MUST, VOID_TO_WIN = (VOID_CODES[m] for m in (Void.MUST_TRUMP, Void.TRUMP_TO_WIN))

# ---- policies: int matrix [seat, part] --------------------------------------------------
P_DECLARE, P_PLAY, P_EXCHANGE = 0, 1, 2
P_TABLE = 3  # chart and table seats: which of the run's declaration tables the seat reads
P_SAMPLES = 4  # pimc seats: the deals sampled at each card decision (N of pimc:N)
P_INFER = 5  # pimc:N:infer[=MODEL] seats: 1 + DECLARE_CODES[MODEL] (kernel/infer.py); 0: plain pimc:N
P_LEN = 6  # the fixed slots; a table with rule seats has wider rows:
P_RULE = P_LEN  # rule seats (P3b): the rule's program from here (game/rule_code.py), the rows as wide as the longest
DECLARE_CODES = {
    "always": 0, "basic": 1, "cautious": 2, "nothing-takes-miss": 3, "threshold": 4, "ev": 5, "chart": 6, "table": 7,
    "flush-aware": 8, "rule": 9,
}  # fmt: skip
D_ALWAYS, D_BASIC, D_CAUTIOUS, D_NOTHING, D_THRESHOLD, D_EV, D_CHART, D_TABLE = range(8)
D_FLUSH_AWARE = 8  # after the calibrated codes: kernel/declare.py matches threshold..table by code, not by order
D_RULE = 9  # rule:CLAUSES (P3b), a program in the seat's row from P_RULE
PF_PLAY_AT, PF_MISS_BELOW = 0, 1  # policy floats [seat, slot] (threshold)
PF_LEN = 2
PLAY_CODES = {"basic": 0, "high": 1, "low": 2, "random": 3, "perfect": 4, "pimc": 5}
PL_BASIC, PL_HIGH, PL_LOW, PL_RANDOM = 0, 1, 2, 3
PL_PERFECT, PL_PIMC = 4, 5  # the solver families (docs/policies.md P8): codes >= PL_PERFECT
SOLVER_TT_BITS = 14  # a solver workspace's transposition table: 2**14 slots (1.4 MB; kernel/cardplay.py)
PIMC_ATTEMPTS = 8  # pimc:N stops after PIMC_ATTEMPTS * N attempts (engine.cardplay.ATTEMPTS_PER_SAMPLE)
INFER_ATTEMPTS = 64  # pimc:N:infer's whole-layout rejection: 64 N attempts (engine.infer.ATTEMPTS_PER_SAMPLE)
EXCHANGE_CODES = {"basic": 0, "none": 1, "keep-trumps": 2, "flush-chase": 3}
X_BASIC, X_NONE, X_KEEP, X_FLUSH = 0, 1, 2, 3

# ---- declarations and outcomes ----------------------------------------------------------
DECL_PASS, DECL_PLAY, DECL_MISS, DECL_DEFEND = (int(d) for d in (Decl.PASS, Decl.PLAY, Decl.MISS, Decl.DEFEND))
NO_FORCING = -1  # forced_seat when no declaration is forced (counterfactual replays force one)
NO_ACTION = 0  # forced_action then; a named value, not a literal 0: numba compiles a literal argument apart
OUT_PLAY, OUT_LONE, OUT_NOBODY, OUT_FLUSH = (int(o) for o in Outcome)

# ---- a perfect-information position (kernel/solver.py, docs/policies.md P7) ----------------
# run/solver.py ``encode_position`` fills them from an engine Position. Seats are indices
# 0..n-1 into the seats in the deal (the engine's in_deal order, the eldest hand first);
# cards are bit positions (kernel/bits.py POS).
PI_N = 0  # seats in the deal
PI_LEADER = 1  # index of the seat that led (or is to lead) the current trick
PI_NCARDS = 2  # cards already played to the current trick
PI_TRICK = 3  # trick index 0..hand_size-1
PI_TRUMP = 4  # trump suit 0..3, -1 while unknown (R6)
PI_MODE = 5  # the deal's trump mode: TURN_UP, FIRST_LEAD or FIRST_RENOUNCE (single pots: FIRST_RENOUNCE)
PI_INDICATOR = 6  # the indicator's bit position (known to the solver even while hidden), -1 none
PI_TURNED = 7  # 1 once the indicator is turned (R6; lead_options' turned_up)
PI_CIVIL = 8  # 1: the current trick's ace of trumps was led under Pam be civil (R9)
PI_RENOUNCED = 9  # 1: a follower of the current trick renounced while trumps were unknown
PI_SINGLE = 10  # 1: a single pot (R8: no first-lead clauses)
PI_DEFENDER = 11  # index of the defender (R8), -1 none
PI_HANDS = 16  # [MAX_PLAYERS] each seat's hand, a mask of bit positions
PI_WON = PI_HANDS + MAX_PLAYERS  # [MAX_PLAYERS] tricks won so far
PI_CARDS = PI_WON + MAX_PLAYERS  # [MAX_PLAYERS] the current trick's cards (bit positions), in playing order
PI_LEN = PI_CARDS + MAX_PLAYERS
PIF_POT_START, PIF_PENALTY = 0, 1  # float vector: pot_start, the loo penalty (R3)
PIF_LEN = 2

# ---- one deal's record: int vector --------------------------------------------------------
O_TRUMP = 0  # -1 unknown
O_INDICATOR = 1  # -1 not turned
O_SINGLE = 2
O_FLUSH_WINNER = 3  # -1 none
O_OUTCOME = 4
O_NTRICKS = 5
O_NIN = 6  # seats in the deal
O_DEFENDER = 7  # -1 none
O_REVEAL = 8  # trick after which trumps were turned, -1 none
O_T_DECL = 9  # trump suit known at the declarations, -1 unknown (hand classes use it)
O_SCRIPT_BROKEN = 10  # advise: 1 when a scripted card was not legal with the hand drawn (SC_SCRIPT)
O_DECL = 16  # [MAX_PLAYERS]
O_WON = O_DECL + MAX_PLAYERS  # tricks won [MAX_PLAYERS]
O_LOOED = O_WON + MAX_PLAYERS  # 0/1 [MAX_PLAYERS]
O_FLUSH_HELD = O_LOOED + MAX_PLAYERS  # 0/1: in the deal and holding a flush at the show
O_OPTIONS = O_FLUSH_HELD + MAX_PLAYERS  # [MAX_PLAYERS] legal declarations, bit 1 << DECL_*
O_LEADER = O_OPTIONS + MAX_PLAYERS  # [MAX_TRICKS]
O_WINNER = O_LEADER + MAX_TRICKS  # [MAX_TRICKS]
O_SEATS = O_WINNER + MAX_TRICKS  # [MAX_TRICKS * MAX_PLAYERS] seats in play order
O_CARDS = O_SEATS + MAX_TRICKS * MAX_PLAYERS  # [MAX_TRICKS * MAX_PLAYERS] cards in play order
O_LEN = O_CARDS + MAX_TRICKS * MAX_PLAYERS
# ---- one deal's record: float vector ------------------------------------------------------
F_POT_START, F_POT_NEXT = 0, 1
F_SHARES = 2
F_PENALTIES = F_SHARES + MAX_PLAYERS
F_ANTES = F_PENALTIES + MAX_PLAYERS
F_LEN = F_ANTES + MAX_PLAYERS

# ---- the kernel's per-deal scratch: int vector ------------------------------------------
SC_HANDS = 0  # [MAX_PLAYERS] hands in play (masks)
SC_ORDER = SC_HANDS + MAX_PLAYERS  # [MAX_PLAYERS] seats from the dealer's left
SC_IN_DEAL = SC_ORDER + MAX_PLAYERS  # [MAX_PLAYERS] seats in the deal, in order
SC_DEALT = SC_IN_DEAL + MAX_PLAYERS  # [MAX_PLAYERS + 1] hands as dealt, then the miss
SC_COUNTERS = SC_DEALT + MAX_PLAYERS + 1  # [MAX_PLAYERS] draws used from each seat's stream
SC_SHUFFLED = SC_COUNTERS + MAX_PLAYERS  # deck positions shuffled so far (the stock is shuffled as it is drawn)
SC_INDICATOR = SC_SHUFFLED + 1  # the indicator's bit position, -1 when none is dealt
SC_STOCK = SC_INDICATOR + 1  # the deck position where the stock starts
SC_SCRIPT_LEN = SC_STOCK + 1  # advise: cards played as scripted, in play order (0 in every other run)
SC_SCRIPT = SC_SCRIPT_LEN + 1  # [MAX_TRICKS * MAX_PLAYERS] those cards (bit positions): card k of trick t at t * m + k
SC_LEN = SC_SCRIPT + MAX_TRICKS * MAX_PLAYERS
DECK_KEY = MAX_PLAYERS  # the deal's seat_keys hold the seats' streams, then the deck's

# ---- aggregates of a block of deals: float vector (kernel/chunks.py) --------------------
A_DEALS = 0
A_OUTCOME = 1  # [4] play, lone, nobody, flush
A_SINGLE = 5
A_POT_START, A_POT_START_SQ = 6, 7
A_POT_NEXT, A_POT_NEXT_SQ = 8, 9
A_LOOED_HIST = 10  # [MAX_PLAYERS + 1] deals by number of looed players
# per-deal counts over seats, for standard errors of the all-seat rows (deals are the
# independent units, seats of one deal are not): sums of x*x, x*y, y*y
A_DECL_SQ = 20  # [4] (seats declaring d)^2
A_TRICKS_XX = 24  # [MAX_TRICKS + 1] (seats winning k tricks)^2
A_TRICKS_XY = 30  # [MAX_TRICKS + 1] (seats winning k tricks) * (seats playing tricks)
A_PLAYED_YY = 36  # (seats playing tricks)^2
A_FLUSH_XX, A_FLUSH_XY, A_FLUSH_YY = 37, 38, 39  # x = seats holding a flush, y = seats at the show
A_SEAT = 40  # per seat, SEAT_LEN slots each:
S_DECL = 0  # [4] declarations
S_TRICKS = 4  # [MAX_TRICKS + 1] tricks won, over deals where the seat played tricks
S_LOOED = 10
S_NET, S_NET_SQ = 11, 12
S_DECL_NET = 13  # [4] net chips by declaration
S_DECL_NET_SQ = 17  # [4]
S_DECL_LOOED = 21  # [4]
S_FLUSH_SHOWN, S_FLUSH_HELD = 25, 26  # in the deal at a flush show / holding a flush there
S_PLAYED = 30  # deals where the seat played tricks
SEAT_LEN = 32
A_CLASS = A_SEAT + MAX_PLAYERS * SEAT_LEN  # per hand class (P5, + the miss): hands played, looed
N_CLASS_SLOTS = N_CLASSES + 1  # the classes of game/classes.py, then the miss (tests/test_kernel_abi.py)
A_POS = A_CLASS + 2 * N_CLASS_SLOTS  # per position from the dealer's left (1..players; 0 unused):
POS_NET, POS_NET_SQ, POS_LOOED, POS_IN = 0, 1, 2, 3  # net chips, its square, looed, in the deal
POS_LEN = 4
A_LEN = A_POS + (MAX_PLAYERS + 1) * POS_LEN

# ---- counterfactual decisions (P4): float vector per cell ---------------------------------
# A cell is what the deciding seat sees: [hand class, position (1..players), the miss on
# offer (0/1: to take it, or as the dealer to defend with it, R8), earlier seats in (0, 1,
# 2, 3+)]; the chart policy's array has the same four axes.
OFFER_BINS = 2
CHART_SHAPE = (N_CLASSES, MAX_PLAYERS + 1, OFFER_BINS, EARLIER_IN_BINS)
ACTIONS = 4  # DECL_PASS, DECL_PLAY, DECL_MISS, DECL_DEFEND

# ---- declaration tables (P6): [table, information set, action] probabilities ---------------
# the chart family reads a chart turned into a pure table (run/args.py), the table family
# a strategy table; a row of NaN is an information set the table does not know (basic).
# A mixed row draws word DECLARE_DRAW of the seat's own stream, which card play never
# reaches (it counts up from 0), so a replay's draws do not depend on the declaration's.
DECLARE_DRAW = 1 << 32
PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))  # action pairs (a, b), a < b
CF_N = 0  # [ACTIONS] deals where the action was on offer
CF_SUM = CF_N + ACTIONS  # [ACTIONS] focal payoff
CF_SQ = CF_SUM + ACTIONS
CF_PAIR_N = CF_SQ + ACTIONS  # [PAIRS] deals where both were on offer
CF_PAIR_SUM = CF_PAIR_N + len(PAIRS)  # payoff(a) - payoff(b)
CF_PAIR_SQ = CF_PAIR_SUM + len(PAIRS)
CF_CHOSEN = CF_PAIR_SQ + len(PAIRS)  # [ACTIONS] what the seat's own policy chose
CF_LEN = CF_CHOSEN + ACTIONS

# ---- heuristic comparison (P4): float vector per heuristic ------------------------------
H_SUM, H_SQ, H_LOOED, H_MISS, H_DIFF, H_DIFF_SQ = range(6)  # vs heuristic 0
H_LEN = 6

# ---- rule variants: per row, per block ----------------------------------------------------
# one deal's values of a row (the variants table's per-deal metrics) ...
V_LOO, V_CONTESTED, V_GROWTH = 0, 1, 2  # looed seats / players; two or more seats in (0/1); pot_next - carried
V_NET_POS = 3  # [MAX_PLAYERS + 1] net chips at position p from the dealer's left (1..players; 0 unused)
V_VALUES = V_NET_POS + MAX_PLAYERS + 1
# ... and, summed over the deals of a block, their differences from the baseline row's on the same deal
V_DIFF = 0  # [V_VALUES] sum of (row's value - baseline row's value)
V_DIFF_SQ = V_VALUES  # [V_VALUES] sum of squares
V_LEN = 2 * V_VALUES
# ... and in sessions (R10, ``kernel.variants.variant_session_block``): one session's sums over
# its measured deals (after the burn-in), per row; the caller keeps their first and second
# moments over sessions (the session is the unit), so every per-deal rate is a ratio of means
VS_ONE, VS_DEALS, VS_LOOED, VS_SINGLE, VS_CONTESTED, VS_POT = range(6)  # 1; deals; looed seats; 0/1 counts; pot_start
VS_NET, VS_NET_SQ, VS_BAL_SQ = 6, 7, 8  # sum of every seat's net; of its square; of each seat's session net squared
VS_NET_POS = 9  # [MAX_PLAYERS + 1] net chips at position p from the dealer's left (1..players; 0 unused)
VW_DEALS, VW_LOOED, VW_SINGLE, VW_CONTESTED, VW_POT = range(5)  # a window's sums
VW_LEN = 5
VS_EARLY = VS_NET_POS + MAX_PLAYERS + 1  # [VW_LEN] deals burn_in .. burn_in + window - 1
VS_LATE = VS_EARLY + VW_LEN  # [VW_LEN] the last ``window`` deals
VS_INEXACT = VS_LATE + VW_LEN  # 1: an amount passed 2**53 (R3: no longer exact)
VS_OVERFLOW = VS_INEXACT + 1  # 1: the pot passed OVERFLOW_LIMIT, the session stopped there
VS_LEN = VS_OVERFLOW + 1

# ---- the card-play ladder (kernel/ladder.py): per entrant, per position, per block -------------
# one deal's values of the focal seat (an entrant at one position; position 0: the mean over the positions) ...
LD_NET, LD_LOOED, LD_TRICKS, LD_PLAYED = 0, 1, 2, 3  # net chips; looed 0/1; tricks won (0 unplayed); played tricks 0/1
LD_DNET, LD_DLOOED, LD_DTRICKS = 4, 5, 6  # minus the first entrant's on the same deal and position
LD_DPLAYED = 7  # |played - the first entrant's played|: nonzero only where their declarations differ
LD_VALUES = 8
# ... summed over the deals of a block
LD_SUM = 0  # [LD_VALUES] sums
LD_SQ = LD_VALUES  # [LD_VALUES] sums of squares
LD_TP = 2 * LD_VALUES  # sum of tricks x played (the ratio estimator of tricks per deal played)
LD_DTP = LD_TP + 1  # sum of (tricks - the first entrant's) x played
LD_LEN = LD_DTP + 1

# ---- sessions (R10) ------------------------------------------------------------------------
# Pot bins (kernel/bins.py pot_bin): one below 1, POT_BINS_PER_DECADE per decade from 1 to
# 10**POT_TOP_DECADE, one above. 32 per decade: a bin spans a factor 10**(1/32) < 1.075, so a
# quantile read as its bin's mean is within 7.5% of the true one at every size. The top: a
# session stops once its pot passes OVERFLOW_LIMIT (1e100), a deal multiplies the pot by at
# most 1 + MAX_PLAYERS, and a balance sums at most MAX_SESSION_DEALS (1e5) such pots: < 1e107.
POT_BINS_PER_DECADE = 32
POT_TOP_DECADE = 112
NB_POT = 1 + POT_BINS_PER_DECADE * POT_TOP_DECADE + 1
POT_TOP = 10.0**POT_TOP_DECADE  # the lower edge of the last bin
EXACT_CHIPS = 4096  # integral amounts 0 <= x < EXACT_CHIPS (|x| for balances) are counted exactly, not binned
EXACT_BUDGET = 1 << 24  # at most this many exact counts per pot-by-deal table (arms x deals x bound)
EXACT_STEPS = 1 << 14  # final balances k / grid with |k| < EXACT_STEPS are counted exactly (grid: run.sessions)
# per arm, per block: scalars
S_SESSIONS, S_DEALS, S_RUINED, S_OVERFLOW, S_INEXACT, S_FINAL_POT = range(6)
S_MAXLOG, S_MAXLOG_SQ = 6, 7  # log10 of the largest pot of a session
S_LOOED_HIST = 8  # [MAX_PLAYERS + 1] deals by number of looed players
S_BAL = S_LOOED_HIST + MAX_PLAYERS + 1  # [MAX_PLAYERS] final net balance
S_BAL_SQ = S_BAL + MAX_PLAYERS
S_RUINED_SEAT = S_BAL_SQ + MAX_PLAYERS  # [MAX_PLAYERS] who was ruined
# per-session sums for ratio estimates with the session as the unit (delta method):
# deals played d, looed players l and the pot left p (the sum of the deals' growth)
S_DEALS_SQ, S_LOOED, S_LOOED_SQ, S_LOOED_DEALS, S_FINAL_POT_SQ, S_FINAL_POT_DEALS = range(
    S_RUINED_SEAT + MAX_PLAYERS, S_RUINED_SEAT + MAX_PLAYERS + 6
)
S_LEN = S_FINAL_POT_DEALS + 1
# per block, per pair of arms (arm x against an earlier arm y, the same decks): sums over
# sessions of per-session differences x - y, and of the deals both played ("shared": the
# first min(deals of x, deals of y) deals of the session, dealt the same in both arms)
PR_BAL = 0  # [MAX_PLAYERS] final net balance
PR_BAL_SQ = PR_BAL + MAX_PLAYERS
PR_MAXLOG, PR_MAXLOG_SQ, PR_RUIN, PR_RUIN_SQ, PR_DEALS, PR_DEALS_SQ = range(
    PR_BAL_SQ + MAX_PLAYERS, PR_BAL_SQ + MAX_PLAYERS + 6
)
PR_SHARED, PR_SHARED_SQ = PR_DEALS_SQ + 1, PR_DEALS_SQ + 2  # shared deals n
PR_LOOED, PR_LOOED_SQ, PR_LOOED_SHARED = PR_DEALS_SQ + 3, PR_DEALS_SQ + 4, PR_DEALS_SQ + 5  # looed x - y on them: s
PR_ONLY_X, PR_ONLY_Y = PR_DEALS_SQ + 6, PR_DEALS_SQ + 7  # deals only x (only y) played
PR_LOOED_ONLY_X, PR_LOOED_ONLY_Y = PR_DEALS_SQ + 8, PR_DEALS_SQ + 9  # looed players in those deals
PR_LOOED_DIFFER = PR_DEALS_SQ + 10  # shared deals whose number of looed players differs between x and y
PR_LEN = PR_LOOED_DIFFER + 1
# per arm, per block, per deal index
DS_RUNNING, DS_LOOED, DS_LOOED_SQ, DS_SINGLE, DS_NOBODY, DS_LONE, DS_FLUSH = range(7)
DS_ANTES, DS_PENALTIES, DS_SHARES, DS_GROWTH, DS_INEXACT_FIRST, DS_OVERFLOW_AT = range(7, 13)
DS_LEN = 13
