"""Named slots of the small int/float vectors that cross the boundary into the kernel
(DESIGN.md property 2: the kernel sees arrays and ints only).

``Rules.to_array()`` fills the R_* slots, ``policies_to_array`` the policy codes, and
the kernel writes one deal's record into the O_* / F_* slots.
"""

MAX_PLAYERS = 8
MAX_TRICKS = 5

# ---- rules: int vector -------------------------------------------------------------
R_PLAYERS, R_HAND, R_MISS, R_TRUMP, R_ANTE_EACH, R_LIMITED, R_BOLD, R_SINGLE_POT = range(8)
R_DEFENDS, R_LEAD, R_VOID, R_PAM, R_CIVIL, R_EXCHANGE, R_FLUSH, R_CLUB_LAW = range(8, 16)
R_LEN = 16
# ---- rules: float vector -------------------------------------------------------------
RF_ANTE, RF_PENALTY = 0, 1
RF_LEN = 2

TRUMP_CODES = {"turn_up": 0, "first_lead": 1, "first_renounce": 2}
TURN_UP, FIRST_LEAD, FIRST_RENOUNCE = 0, 1, 2
BOLD_CODES = {"off": 0, "last_and_dealer": 1, "everyone": 2}
BOLD_OFF, BOLD_LAST, BOLD_EVERYONE = 0, 1, 2
LEAD_CODES = {"free": 0, "ace": 1, "trump": 2, "classic": 3}
LEAD_FREE, LEAD_ACE, LEAD_TRUMP, LEAD_CLASSIC = 0, 1, 2, 3
VOID_CODES = {"must_trump": 0, "trump_to_win": 1}
VOID_MUST, VOID_TO_WIN = 0, 1

# ---- policies: int matrix [seat, part] --------------------------------------------------
P_DECLARE, P_PLAY, P_EXCHANGE = 0, 1, 2
DECLARE_CODES = {"always": 0, "basic": 1, "cautious": 2, "nothing-takes-miss": 3}
D_ALWAYS, D_BASIC, D_CAUTIOUS, D_NOTHING = 0, 1, 2, 3
PLAY_CODES = {"basic": 0, "high": 1, "low": 2, "random": 3}
PL_BASIC, PL_HIGH, PL_LOW, PL_RANDOM = 0, 1, 2, 3
EXCHANGE_CODES = {"basic": 0, "none": 1, "keep-trumps": 2, "flush-chase": 3}
X_BASIC, X_NONE, X_KEEP, X_FLUSH = 0, 1, 2, 3

# ---- declarations and outcomes ----------------------------------------------------------
DECL_PASS, DECL_PLAY, DECL_MISS, DECL_DEFEND = 0, 1, 2, 3
DECL_NAMES = ("pass", "play", "miss", "defend")
OUT_PLAY, OUT_LONE, OUT_NOBODY, OUT_FLUSH = 0, 1, 2, 3
OUTCOME_NAMES = ("play", "lone", "nobody", "flush")

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
O_DECL = 16  # [MAX_PLAYERS]
O_WON = O_DECL + MAX_PLAYERS  # tricks won [MAX_PLAYERS]
O_LOOED = O_WON + MAX_PLAYERS  # 0/1 [MAX_PLAYERS]
O_FLUSH_HELD = O_LOOED + MAX_PLAYERS  # 0/1: in the deal and holding a flush at the show
O_LEADER = O_FLUSH_HELD + MAX_PLAYERS  # [MAX_TRICKS]
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
