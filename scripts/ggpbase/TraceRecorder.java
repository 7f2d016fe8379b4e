import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.gdl.grammar.GdlConstant;
import org.ggp.base.util.gdl.grammar.GdlFunction;
import org.ggp.base.util.gdl.grammar.GdlSentence;
import org.ggp.base.util.gdl.grammar.GdlTerm;
import org.ggp.base.util.statemachine.MachineState;
import org.ggp.base.util.statemachine.Move;
import org.ggp.base.util.statemachine.Role;
import org.ggp.base.util.statemachine.implementation.prover.ProverStateMachine;

/**
 * Records random matches of a rulesheet with ggp-base's ProverStateMachine in
 * the format of ../shared/traces (its README): one JSON line per seed, moves
 * chosen by one java.util.Random(seed) per match, nextInt(n) per role per
 * step over the role's sorted legal moves.
 *
 * Usage: java -cp LIB/*:. TraceRecorder RULES.kif KEY FIRSTSEED LASTSEED MAXSTEPS
 */
public class TraceRecorder {
  public static void main(String[] a) throws Exception {
    String text = new String(Files.readAllBytes(Paths.get(a[0])));
    List<Gdl> rules = Game.createEphemeralGame(Game.preprocessRulesheet(text)).getRules();
    String key = a[1];
    int first = Integer.parseInt(a[2]), last = Integer.parseInt(a[3]), maxSteps = Integer.parseInt(a[4]);
    for (int seed = first; seed <= last; seed++) {
      ProverStateMachine m = new ProverStateMachine();
      m.initialize(rules);
      System.out.println(match(m, key, seed, maxSteps));
    }
    System.exit(0);
  }

  static String match(ProverStateMachine m, String key, long seed, int maxSteps) throws Exception {
    Role[] roles = m.getRoles();
    Random rng = new Random(seed);
    StringBuilder b = new StringBuilder();
    b.append("{\"game\":").append(quote(key)).append(",\"seed\":").append(seed).append(",\"roles\":[");
    for (int r = 0; r < roles.length; r++) {
      b.append(r > 0 ? "," : "").append(quote(text(roles[r].getName())));
    }
    b.append("],\"steps\":[");
    MachineState s = m.getInitialState();
    boolean terminal;
    for (int step = 0; ; step++) {
      terminal = m.isTerminal(s);
      b.append(step > 0 ? "," : "").append("{\"state\":");
      TreeSet<String> facts = new TreeSet<>();
      for (GdlSentence f : s.getContents()) {
        facts.add(text(f.get(0)));
      }
      list(b, new ArrayList<>(facts));
      b.append(",\"legal\":{");
      List<List<Move>> legal = new ArrayList<>();
      for (int r = 0; r < roles.length; r++) {
        TreeSet<String> names = new TreeSet<>();
        List<Move> ms = new ArrayList<>();
        try {
          ms = m.getLegalMoves(s, roles[r]);
        } catch (Exception e) {
          ms = new ArrayList<>();
        }
        for (Move mv : ms) {
          names.add(text(mv.getContents()));
        }
        List<Move> sorted = new ArrayList<>();
        for (String n : names) {
          for (Move mv : ms) {
            if (text(mv.getContents()).equals(n)) {
              sorted.add(mv);
              break;
            }
          }
        }
        legal.add(sorted);
        b.append(r > 0 ? "," : "").append(quote(text(roles[r].getName()))).append(":");
        list(b, new ArrayList<>(names));
      }
      b.append("},\"terminal\":").append(terminal);
      StringBuilder goals = new StringBuilder();
      for (int r = 0; r < roles.length; r++) {
        try {
          int g = m.getGoal(s, roles[r]);
          goals.append(goals.length() > 0 ? "," : "").append(quote(text(roles[r].getName()))).append(":").append(g);
        } catch (Exception e) {
          // no single goal value: the role is left out
        }
      }
      if (goals.length() > 0) {
        b.append(",\"goals\":{").append(goals).append("}");
      }
      if (terminal || step == maxSteps) {
        b.append("}");
        break;
      }
      List<Move> joint = new ArrayList<>();
      List<String> jointText = new ArrayList<>();
      for (int r = 0; r < roles.length; r++) {
        List<Move> ms = legal.get(r);
        Move mv = ms.get(rng.nextInt(ms.size()));
        joint.add(mv);
        jointText.add(text(mv.getContents()));
      }
      b.append(",\"joint\":");
      list(b, jointText);
      b.append("}");
      s = m.getNextState(s, joint);
    }
    b.append("],\"complete\":").append(terminal).append("}");
    return b.toString();
  }

  /** text prints a term as the shared traces do: (f a b), constants bare. */
  static String text(GdlTerm t) {
    if (t instanceof GdlFunction) {
      GdlFunction f = (GdlFunction) t;
      StringBuilder b = new StringBuilder("(").append(f.getName().getValue());
      for (GdlTerm x : f.getBody()) {
        b.append(' ').append(text(x));
      }
      return b.append(')').toString();
    }
    if (t instanceof GdlConstant) {
      return ((GdlConstant) t).getValue();
    }
    return t.toString();
  }

  static void list(StringBuilder b, List<String> xs) {
    b.append('[');
    for (int i = 0; i < xs.size(); i++) {
      b.append(i > 0 ? "," : "").append(quote(xs.get(i)));
    }
    b.append(']');
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.append('"').toString();
  }
}
