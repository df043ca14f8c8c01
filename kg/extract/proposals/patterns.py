"""The regular expressions of naming sentences: the building blocks (a name
token, a Title Case phrase, the naming verbs, the paper's own voice), the cue
patterns made of them (each with a ``name`` group), and the context tests the
cue passes of :mod:`kg.extract.proposals.cues` apply around a match.

Pure data: compiled once at import, no functions.
"""
from __future__ import annotations

import re

# a name: a token with a capital after its first letter, or digits, or ++ /
# ^ marks: ToMoE, LLR, R^3, W4A16, PPI++, Meta-iLaD, DiffusionDB
_NAME_TOKEN = (r"(?:[A-Za-z0-9Α-Ω][\w^+\-.']*[A-Z0-9+^][\w^+\-'#]*|[A-Z][a-z]+[A-Z][\w^+\-'#]*)"
               r"(?: [A-Z][a-z]*-[\w\-]+| [Vv]\d+(?:\.\d+)?(?![\w\-]))?")
# a Title Case phrase: Shannon Scaling Law, Layerwise Learning Rate
#
# A hyphen inside a word could also be the separator between two words, and a
# chain like "A-A-A-..." then splits in about n^7 ways when the pattern fails.
# So the split is decided up front: a hyphen before something that can start
# a word of the phrase (a capital, a function word) separates; any other
# hyphen is part of the word ("Self-attention"). The tails are possessive.
_WORD_START = (r"(?:[A-Z]|\d+[A-Z]|[a-z]+[A-Z]"
               r"|(?:of|for|and|with|in|on|to|via|the|a|as)(?![\w']))")
_WORD_TAIL = rf"[\w']*+(?:-(?!{_WORD_START})[\w']*+)*+"
_TITLE_WORD = rf"(?:[A-Z]{_WORD_TAIL}|\d++[A-Z]{_WORD_TAIL}|[a-z]++[A-Z]{_WORD_TAIL})"
_TITLE = rf"{_TITLE_WORD}(?:[ \-](?:of|for|and|with|in|on|to|via|the|a|{_TITLE_WORD})){{1,7}}"
# a Title phrase that ends in a capitalised word (no trailing "of", "in")
_TITLE_ONLY = (rf"{_TITLE_WORD}(?:[ \-](?:(?:of|for|and|with|in|on|to|via|the|a|as)[ \-])*{_TITLE_WORD})"
               r"{1,6}")
_ACR = r"\([A-Za-z][\w^+\-]{1,14}\)"

VERBS = (r"introducing|proposing|developing|presenting|designing|propose|proposes|proposed|introduce|introduces|present|presents|develop|develops|"
          r"design|designs|devise|devises|formulate|construct|curate|create|build|release|"
          r"developed|introduced|presented|designed|devised|built|created|constructed|curated|"
          r"contribute|put forward|offer|call|term|name")
_ADJ = (r"a|an|the|our|two|three|new|novel|simple|first|general|unified|efficient|effective|"
        r"scalable|principled|lightweight|practical|generic|flexible|robust|comprehensive|"
        r"large-scale|fast|provable|provably|theoretical|versatile|training-free|plug-and-play|"
        r"framework|method|approach|algorithm|technique|model|benchmark|dataset|suite|family|"
        r"class|set|called|named|termed|dubbed|of|this|it|use|the use|game-agnostic")
FILLER = rf"(?:(?:{_ADJ}),?\s+)*"
# "a new family of sparse sketches, ", "a novel DPMs-based transfer learning method, "
_LOOSE = (r"(?:(?!(?:to|that|which|using|on|for|with|from|in|by|and)\b|[A-Z][\w\-]*,)"
          r"[\w\-]+[,:]?\s+){0,7}")   # (not past a name: "we propose Momentor, a Video-LLM")
OPEN_Q = r"[\"“‘']?"
SUBJECT = (r"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study|article)|[Oo]ur (?:work|paper))\s+"
            r"(?:first\s+|further\s+|also\s+|then\s+|thus\s+|therefore\s+|hence\s+|here\s+)?"
            r"|\b[Bb]y\s+(?=(?:introduc|propos|develop|present|design)ing))")
VERBS_ING = r"introducing|proposing|developing|presenting|designing"
CUE = re.compile(
    rf"{SUBJECT}(?:{VERBS})\s+{FILLER}{OPEN_Q}"
    rf"(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?"
    rf"|{_TITLE}(?=[\"”’']?\s*(?:[,.(;:—–]|that\b|which\b|to\b|for\b|by\b|with\b|as\b|in\b|and\s+[a-z]))"
    rf"|{_TITLE_ONLY}(?=\s+(?:method|framework|model|algorithm|approach|technique|strategy|module|"
    rf"mechanism|loss|objective|architecture|benchmark|dataset)\b)"
    rf"|[A-Z][a-z]{{2,}}[\w+\-]*(?=\s*(?:,\s*(?:a|an|the first|which)\s|\(|:\s|[—–])))")
# "we propose attention with dynamic relational priming (prime attention)"
CUE_PAREN = re.compile(
    rf"{SUBJECT}(?:{VERBS})\s+{FILLER}(?P<name>(?!(?:a|an|the|yet|our|this)\b)[a-z][\w\-]*"
    rf"(?: [\w\-]+){{1,7}}) "
    rf"\((?P<alias>(?!(?:with|for|to|of|in|on|by|see|where|which|that|e\.g|i\.e|resp|called|termed|"
    rf"dubbed|named|namely|coined)\b)"
    rf"[a-z][\w\- ]{{2,40}})\)")
FUNCTION_WORDS = frozenset("with for to of in on by and or the a an from via as at".split())
CUE_LOOSE = re.compile(rf"{SUBJECT}(?:{VERBS})\s+{_LOOSE}(?:[\w\-]+\s*(?:[—–]\s*(?:the\s+)?|\())?"
                        rf"(?P<name>{_NAME_TOKEN})")

CALLED = re.compile(
    rf"\b(?:called|dubbed|named|termed|coined|namely|abbreviated as|denoted as|denoted by|"
    rf"referred to as|which we call|we call it|we name it|we term)\s+(?:as\s+)?(?:the\s+)?{OPEN_Q}"
    rf"(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?)")
# a single capitalised word or a Title phrase, ended by punctuation or a clause:
# "the framework named Ditto to", "a new training objective named 3D Cloze Test to"
_CAP_WORD = r"[A-Z][a-z]{2,}[\w+\-]*"
_BOUND = (r"(?![\w\-])(?=[\"”’']?(?:\s*[,.(;:—–]|\s+(?:that|which|to|for|by|with|as|in|is|and|on)\b"
          r"|\s*$))")
_BOUND_WORD = r"(?![\w\-])(?=[\"”’']?(?:\s*[,.(;:—–]|\s+(?:that|which|to|is|was|and)\b|\s*$))"
# lower case phrases: "called input clarification ensembling, which", "namely node
# intervention and node merging,", "a process we call 'operator action'"
_LOWER_WORD = (r"(?!(?:a|an|the|this|these|our|its|to|for|that|which|is|are|was|were|be|can|will|"
               r"with|by|from|in|on|as|at|we|it|such|also)\b)[a-z][\w\-]*(?<!ly)")
CALLED_MORE = re.compile(
    rf"\b(?:called|dubbed|named|termed|coined|namely|denoted as|referred to as|which we call|"
    rf"we call it|we call|we name it|we term|we dub|which we denote|we denote it)\s+(?:as\s+)?(?:the\s+)?"
    rf"(?:{OPEN_Q}(?P<name>{_TITLE_ONLY}{_BOUND}|{_CAP_WORD}{_BOUND_WORD})"
    rf"|[\"“‘'`](?P<quoted>{_LOWER_WORD}(?: {_LOWER_WORD}){{0,4}})[\"”’']"
    rf"|(?P<lower>{_LOWER_WORD}(?: {_LOWER_WORD}){{1,7}})(?<! and)(?<! or)"
    rf"(?=,\s|\s\(|\.\s|\.$|;|\s+(?:for|that|which)\b)"
    # "Q-score matching": a capitalised hyphenated word, then lower-case ones
    rf"|(?P<mixed>[A-Z][\w]*-[a-z][\w\-]*(?: {_LOWER_WORD}){{1,3}})(?=,\s|\s\(|\.\s|\.$|;))")
# a lower-case name needs the paper's own voice in its sentence
OWN_VOICE = re.compile(r"\b(?:[Ww]e (?:\w+ )?(?:propose|introduce|present|develop|design|devise|call|"
                        r"term|name|dub|coin|refer)|[Oo]ur|novel|new|proposed"
                        # "we identify an interesting phenomenon called X": coined by the paper
                        r"|[Ww]e (?:\w+ )?(?:identify|discover|observe|uncover|reveal)\b[^.]*\b"
                        r"(?:phenomenon|effect|property|behaviou?r))\b")
# "two methods, namely X and Y" (not "two factors, namely the graph topology")
NAMELY_OF_METHODS = re.compile(r"\b(?:methods|approaches|algorithms|techniques|strategies|modules|"
                                r"variants|components|mechanisms|schemes|models|frameworks|variant|"
                                r"method|approach|algorithm|technique|strategy|module|mechanism|model|"
                                r"framework|loss|objective)\s*,?\s*$")
# "which are termed Video-LLMs", "the so-called Mapper graph": names of others
PASSIVE_BEFORE = re.compile(r"(?:\bso[- ]|\b(?:also|often|commonly|usually|widely|generally|"
                             r"typically|are|were|been|sometimes)\s+)$")
# "we ... and design FC-Entry algorithm": the paper's second verb
AND_VERB = re.compile(rf"\band\s+(?:then\s+)?(?:propose|design|develop|introduce|present|devise)\s+"
                       rf"(?:(?:a|an|the|new|novel)\s+)*(?:(?:method|framework|model|algorithm|"
                       rf"benchmark|dataset|approach)\s+(?=[A-Z]))?"
                       rf"(?P<name>{_NAME_TOKEN}|(?:{_TITLE_ONLY}|{_CAP_WORD})"
                       rf"(?=\s*(?:,\s*(?:a|an)\s|\(|:\s|[—–])))")
AND_VERB_HINT = re.compile(r"and (?:then )?(?:propose|design|develop|introduce|present|devise)")
# "We introduce prospector heads, an efficient ...", "we present bifurcated attention, a"
CUE_LOWER = re.compile(
    rf"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:also\s+|further\s+|therefore\s+|then\s+|first\s+)?"
    rf"(?:introduce|propose|present|develop|design|devise)s?\s+"
    rf"(?:the\s+)?(?P<name>(?!(?:two|three|several|various|both|some|one|another|new|novel|simple|"
    rf"first|second|same|following|main|key|general)\b)"
    rf"{_LOWER_WORD}(?: (?:{_LOWER_WORD}|[A-Z]{{2,}}[a-z]?[A-Z]*\b)){{0,3}}),\s+(?:a|an|which)\b")
# "We propose a novel method, severity encoding, to estimate": the name between commas
METHOD_COMMA = re.compile(
    rf"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:also\s+|further\s+|then\s+|first\s+)?"
    rf"(?:introduce|propose|present|develop|design|devise)s?\s+(?:a|an)\s+(?:(?:novel|new|simple|"
    rf"general|efficient|effective|principled)\s+)*(?:method|approach|technique|algorithm|"
    rf"framework|module|strategy|loss|objective),\s+"
    rf"(?P<name>(?!(?:called|termed|named|dubbed|namely|coined)\b){_LOWER_WORD}(?: {_LOWER_WORD}){{0,3}}),\s")
# "we present a new amortized inference method—the Simformer—which"
DASH_NAME = re.compile(
    r"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study|article))\s+)(?:introduce|propose|present|develop|"
    r"design|devise)s?\s+(?:(?!(?:to|that|which|using|on|for|with|from|in|by|and)\b)[\w\-]+,?\s+){0,7}"
    rf"[\w\-]+\s*[—–]\s*(?:the\s+)?(?P<name>{_CAP_WORD}|{_NAME_TOKEN})(?=\s*[—–,])")
DASH_HINT = re.compile(r"[—–]\s*(?:the\s+)?[A-Z]")
# "we introduce ETHER and its relaxation ETHER+", "namely X and Y"
AND_NEXT = re.compile(
    rf"\s+and\s+(?:its\s+[a-z\-]+\s+|the\s+)?(?P<name>{_NAME_TOKEN}|{_TITLE_ONLY}{_BOUND}|"
    rf"{_CAP_WORD}{_BOUND_WORD})")
# "federated adaptive asynchronous optimization, named FADAS"
LOWER_NAMED = re.compile(
    rf"{SUBJECT}(?:{VERBS})\s+{FILLER}(?P<long>[a-z][\w\-]*(?: [a-z][\w\-]*){{1,7}}),?\s+"
    rf"(?:named|called|dubbed|termed|coined|namely)\s+(?P<name>{_NAME_TOKEN})")
# "Central to our approach is Graph Symmetric Attention, which"
OUR_IS = re.compile(
    rf"\b[Oo]ur (?:approach|method|framework|model|algorithm|design|solution) (?:is|uses|relies on|"
    rf"introduces|builds on)\s+(?:a |an |the )?(?P<name>{_TITLE}(?:\s*{_ACR})?|{_NAME_TOKEN})")
# "the resulting Particle Denoising Diffusion Sampler (PDDS)": named with its acronym
RESULTING = re.compile(rf"\b[Tt]he resulting (?P<name>{_TITLE_ONLY}\s*{_ACR})")
# "We call this probabilistic score the Visual Generative Pre-Training Score (VisualGPTScore)"
CALL_THIS = re.compile(rf"\b[Ww]e (?:call|term|name|dub) (?:this|these|such|such an?) (?:[\w\-]+ ){{1,3}}?"
                        rf"(?:the |an? )?(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?)")
# "a novel Dreaming Strategy": a Title phrase the paper coins
NOVEL_TITLE = re.compile(rf"(?:novel|innovative) (?P<name>{_TITLE_ONLY})(?![\w\-])(?!\s*\(|\s+[A-Z])")
ARTICLE_BEFORE = re.compile(r"(?:^|\W)(?:a|an|the) $")   # (a literal start keeps the scan fast)
# "the proposed SPT", "our Leddam"
OWN = re.compile(rf"\b(?:[Tt]he proposed|[Oo]ur proposed|[Oo]ur)\s+(?P<name>{_TITLE_ONLY}{_BOUND}"
                  rf"|{_TITLE_WORD}(?:[ \-]{_TITLE_WORD}){{1,5}}(?= [a-z])|{_NAME_TOKEN})")
OUR = re.compile(
    rf"\b[Oo]ur (?:proposed |new |novel )?(?:method|approach|framework|model|algorithm|benchmark|"
    rf"dataset|system|technique|architecture|pipeline|tool|library|estimator|optimizer|detector|"
    rf"network|agent|policy|solver|sampler|loss|objective|module|attack|defense|encoder|decoder|"
    rf"planner|controller|learner|classifier|generator|simulator|environment|strategy|scheme|"
    rf"procedure|mechanism|solution),?\s+"
    rf"\(?(?:the\s+)?(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN})")
NOVEL_PAREN = re.compile(
    rf"\b(?:novel|new|our|proposed)\b(?P<gap>[^.()]{{0,80}}?)\((?P<name>{_NAME_TOKEN})\)")
# "a novel paradigm that leverages the Abstract Syntax Tree (AST)": the name is another's
NOVEL_GAP_STOP = re.compile(r"\b(?:that|which|leverag\w*|using|uses|based|from|of|on|with|via|into|to)\b")
# anchored on a cheap literal, then the name is matched backwards from it
APPOSITION_AT = re.compile(r",\s+(?:a|an)\s+")
WINS_AT = re.compile(r"\b(?:outperforms|surpasses|beats|achieves state-of-the-art)\b")
ADVERB_BEFORE = re.compile(r"\s+(?:(?:consistently|significantly|substantially|also)\s+)?$")
NAME_FULL = re.compile(_NAME_TOKEN)
ENUM_AT = re.compile(r"\)\s*")
ENUM_MARK = re.compile(r"(?:^|[\s(])(?:\d|i{1,3}|iv|[a-c])$")
ENUM_TITLE = re.compile(rf"(?P<name>{_TITLE})(?=,?\s+(?:which|that|to)\b)")
GENERIC_NOUNS = frozenset("method methods approach framework model algorithm technique scheme "
                           "strategy variant system pipeline objective loss module mechanism "
                           "architecture benchmark dataset agent paradigm network tool library "
                           "family task setting problem procedure criterion solution plugin".split())
# "The resulting model, Tripod, achieves", "Our proposed baselines, FRBC and FRBT, achieve"
OWN_APPOSITION = re.compile(
    rf"\b(?:[Tt]he resulting|[Oo]ur (?:proposed|new|novel|final))\s+(?:[\w\-]+\s+){{0,2}}?"
    rf"(?P<noun>[a-z]+),\s+(?P<name>(?:{_NAME_TOKEN}|{_CAP_WORD})(?:,?\s+and\s+(?:{_NAME_TOKEN}|"
    rf"{_CAP_WORD}))?),")
GENERIC_PLURALS = frozenset("methods approaches frameworks models algorithms techniques schemes strategies "
                             "results experiments evidence analyses bounds guarantees insights tools "
                             "variants systems pipelines".split())
FIRST_PERSON = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work))\b")
APPOSITION_NOUNS = GENERIC_NOUNS | GENERIC_PLURALS | {"baseline", "baselines"}
AND_SPLIT = re.compile(r",?\s+and\s+")


# a lower-case noun right after a name: the name modifies what the paper makes
MODIFIER_AFTER = re.compile(r"\s+(?!(?:and|or|to|that|which|for|in|on|with|by|as|is|are|was|were|"
                             r"can|from|of|via|using|based|into|under|at|the|a|an)\b)[a-z][a-z\-]+")


THING_BEFORE = re.compile(r"(?<!\bto )\b((?i:pipeline|framework|method|approach|algorithm|model|"
                           r"architecture|module|network|system|technique|strategy|scheme|"
                           r"mechanism|estimator|benchmark|dataset|agent|optimizer|solver|attack|"
                           r"paradigm|suite|transformer)s?)(?:\s*\([^()]{1,20}\))?(?:,\s+|\s)$")
APPOSED_AFTER = re.compile(r"(?=[,;:]|\.(?:\s|$)|\s*\(|\s+(?:which|that|to|for|is|and)\b)")
PAREN_APPOSED = re.compile(rf"\),\s+(?P<name>{_NAME_TOKEN})(?=,|\s*\(|\s+(?:which|that|to|for|is)\b)")
